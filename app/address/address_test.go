package address

import (
	"net/url"
	"strings"
	"testing"

	"omission/sim"
)

// TestSetKeys: the page keys go last, in PageKeys order, replace earlier
// ones, and leave the simulator's canonical query as it was.
func TestSetKeys(t *testing.T) {
	keys := func(stall, at string) url.Values { return url.Values{KeyAnim: {stall}, KeyAnimT: {at}} }
	for _, c := range []struct {
		raw  string
		keys url.Values
		want string
	}{
		{"", keys("1", "1.6s"), "anim=1&anim_t=1.6s"},
		{"preset=tcp&stall=1s", keys("0", "2.5s"), "preset=tcp&stall=1s&anim=0&anim_t=2.5s"},
		{"anim=3&rate=7000&anim_t=9s&conns=2", keys("2", "1.500123456s"), "rate=7000&conns=2&anim=2&anim_t=1.500123456s"},
		{"rate=7000&anim=3&anim_t=9s", url.Values{KeyAnim: {""}, KeyAnimT: {""}}, "rate=7000"},
	} {
		if got := SetKeys(c.raw, c.keys); got != c.want {
			t.Errorf("SetKeys(%q, %v) = %q, want %q", c.raw, c.keys, got, c.want)
		}
	}
	// The simulator accepts the page keys beside its query.
	if _, err := sim.ParseQuery("preset=bench&anim=1&anim_t=1.6s&figure=spectrum", PageKeys()...); err != nil {
		t.Errorf("the page keys are refused: %v", err)
	}
}

// TestAddress: an address is written in one order (the simulator's fields,
// other keys sorted, the page keys) with the simulator's escaping, reads
// back to itself, and is never changed by what is made from it.
func TestAddress(t *testing.T) {
	a := ParseAddress("?anim=1&zz=%3C&outages=5s-6s%2C7s-8s&vs=rate%3D2000%26stall%3D1s&preset=tcp&aa=1&tools=wrk,wrk2#frag")
	want := "preset=tcp&outages=5s-6s,7s-8s&aa=1&zz=%3C&tools=wrk,wrk2&vs=rate%3D2000%26stall%3D1s&anim=1"
	if got := a.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if again := ParseAddress(want); again.String() != want || again.Get(KeyVs) != "rate=2000&stall=1s" {
		t.Errorf("read back: %q, vs %q", again, again.Get(KeyVs))
	}
	if cfg, err := sim.ParseQuery(a.Without("aa", "zz").String(), PageKeys()...); err != nil || cfg.Query() != "preset=tcp&outages=5s-6s,7s-8s" {
		t.Errorf("the simulator reads %q, err %v", cfg.Query(), err)
	}
	b := a.With("rate", "").With(KeyAnim).WithKeys(url.Values{KeyCDF: {"1"}, KeyTools: {""}}).Only("preset", "rate", KeyCDF, KeyTools, KeyAnim)
	if got := b.String(); got != "preset=tcp&rate=&cdf=1" {
		t.Errorf("derived: %q", got)
	}
	if a.String() != want {
		t.Errorf("deriving changed the address: %q", a)
	}
	if v, ok := ParseAddress("rate=1&rate=2").Given("rate"); ok || v != "" {
		t.Errorf("a repeated key is given once: %q", v)
	}
	bad := ParseAddress("rate=2000&stall=%ZZ")
	if bad.Err() == nil || bad.String() != "rate=2000" {
		t.Errorf("undecodable: err %v, %q", bad.Err(), bad)
	}
}

// TestStrays: the keys a page drops are the unknown ones and those of once
// given more than once, in the order the address is written; the notice
// says what was dropped and which value the field kept.
func TestStrays(t *testing.T) {
	a := ParseAddress("zz=1&rate=1&rate=2&anim=1&anim=2&aa=&stall=1s")
	known := func(k string) bool { return k == "rate" || k == "stall" || k == KeyAnim }
	es := a.Strays(known, "rate", "stall")
	if got := strings.Join(Fields(es), ","); got != "rate,aa,zz" {
		t.Fatalf("strays %q (%v)", got, es)
	}
	if es[0].Reason != sim.ReasonRepeated || es[0].Value != "1,2" || es[1].Reason != sim.ReasonUnknown {
		t.Errorf("reasons: %v", es)
	}
	if got := a.Without(Fields(es)...).String(); got != "stall=1s&anim=1&anim=2" {
		t.Errorf("clean: %q", got)
	}
	for _, c := range []struct {
		fe           *sim.FieldError
		keeper, kept string
		want         string
	}{
		{es[0], "The run keeps the preset's value", "5000", `rate was given more than once ("1,2"), so neither value was taken and the key was removed from the address. The run keeps the preset's value, 5000.`},
		{es[0], "The run keeps the preset's value", "", `rate was given more than once ("1,2"), so neither value was taken and the key was removed from the address.`},
		{es[2], "", "", `Ignored "zz": not a parameter of this page; it was removed from the address.`},
	} {
		if got := DroppedNotice(c.fe, c.keeper, c.kept); got != c.want {
			t.Errorf("DroppedNotice = %q, want %q", got, c.want)
		}
	}
}
