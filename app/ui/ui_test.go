package ui

import (
	"net/url"
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
