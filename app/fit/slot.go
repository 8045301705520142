package fit

import (
	"slices"
	"strings"

	"omission/app/units"
	"omission/sim"
)

// A paced client (one connection, timed from its send) sends on its slots
// 1/rate apart and, when a stall holds a reply, sends next on the first
// slot after it. The send a stall holds left when the stall began or up to
// a slot less a service after it (a send earlier than that would still be
// in service when the stall began, and be the one held), so its reply
// took the stall plus a service less that time: the slowest reply less a
// service is the stall only when a send left as the stall began. A stall
// that begins δ earlier and lasts δ longer ends when it did and gives the
// same file, for every δ up to the slot less a service less the slow
// replies' spread (the slowest less the least). Without its rate the file
// gives no slot: slotSpan samples the far end at every other rate
// rateSpan keeps and at the highest, and the stall is free from the
// slowest reply less a service up (to no bound: a lower rate, which the
// file does not rule out, has a longer slot).

// slotSpan is what rateSpan samples of a paced client's stall: the file's
// slowest reply and its slow replies' spread, and each far end kept.
type slotSpan struct {
	top, spread int64
	kept        []sim.Config
}

// farEnd is c with its stall at its slot's far end: as long as the slot
// less a service less the slow replies' spread allows past the slowest
// reply less a service, its first stall begun that much before a send (c's
// first stall on the schedule's grid), so each stall ends when c's at the
// slowest reply's stall would; false when the slot leaves nothing more.
func (sl *slotSpan) farEnd(c sim.Config) (sim.Config, bool) {
	T := sim.NewSchedule(c.Rate).Interval(1)
	d := T - c.Service - sl.spread
	if T <= 0 || d <= 0 {
		return c, false
	}
	c.Stall = sl.top - c.Service + d
	f := snapT(c, c.First)
	if f >= d {
		c.First = f - d
	} else {
		c.First = f + T - d
	}
	if c.Every > 0 && c.Every <= c.Stall {
		return c, false
	}
	return c, true
}

// widen keeps a far end that explains the file.
func (sl *slotSpan) widen(c sim.Config) { sl.kept = append(sl.kept, c) }

// newSlotSpan reads the slowest reply and the slow replies' spread of a
// paced recording's spectrum o, whose service is s (nil: no slow reply).
func newSlotSpan(o *obs, s int64) *slotSpan {
	vc, _ := tail(o, s)
	if len(vc) == 0 {
		return nil
	}
	top := max(o.max, vc[len(vc)-1].Ns)
	return &slotSpan{top: top, spread: top - vc[0].Ns}
}

// freeAtRate states the stall's range when the rate is given (rate=R), so
// that the slot is known: from the slowest reply less a service, to the
// file's precision, to that plus the slot less a service less the slow
// replies' spread, when that spans more than 1 % of the stall (a slot of
// 100 ms at 10/s against a stall of 500 ms: one value could be 20 % off).
func (sl *slotSpan) freeAtRate(g *guess, cfg sim.Config) {
	T := sim.NewSchedule(cfg.Rate).Interval(1)
	d := T - cfg.Service - sl.spread
	if T <= 0 || d <= 0 {
		return
	}
	lo := min(sl.top-sl.top/512-cfg.Service, cfg.Stall)
	hi := max(sl.top-cfg.Service+d, cfg.Stall)
	if float64(hi-lo) <= 0.01*float64(cfg.Stall) {
		return
	}
	g.free = slices.DeleteFunc(g.free, func(f Free) bool { return f.Param == "stall" })
	g.setFree("stall", sim.FormatDuration(cfg.Stall), sim.FormatDuration(lo), sim.FormatDuration(hi),
		"a paced client times each request from its send, and the send a stall holds may leave up to a slot ("+units.Duration(T)+" at "+perSecond(cfg.Rate)+") less a service after the stall began: the stall is the slowest reply less a service, to the file's precision, plus up to that slot less a service less the slow replies' spread")
}

// free states the stall's range: from the slowest reply less a service, to
// the file's precision (a 512th of the reply: an .hgrm's buckets are a
// 1024th wide at 3 digits), up to no bound; the far ends sampled at the
// model's rate and at the highest rate kept are named.
func (sl *slotSpan) free(g *guess, cfg sim.Config) {
	lo := min(sl.top-sl.top/512-cfg.Service, cfg.Stall)
	var atFit, atHi *sim.Config
	for i := range sl.kept {
		c := &sl.kept[i]
		if c.Rate == cfg.Rate && (atFit == nil || c.Stall > atFit.Stall) {
			atFit = c
		}
		if atHi == nil || c.Rate > atHi.Rate {
			atHi = c
		}
	}
	var at []string
	for _, c := range []*sim.Config{atFit, atHi} {
		if c != nil && (c == atFit || atFit == nil || c.Rate != atFit.Rate) {
			w := units.Duration(c.Stall) + " at " + perSecond(c.Rate)
			if c == atFit {
				w = units.Duration(c.Stall) + " at the model's " + perSecond(c.Rate)
			}
			at = append(at, w)
		}
	}
	sampled := ""
	if len(at) > 0 {
		sampled = " (" + strings.Join(at, ", ") + ")"
	}
	g.setFree("stall", sim.FormatDuration(cfg.Stall), sim.FormatDuration(lo), "",
		"a paced client times each request from its send, and the send a stall holds may leave up to a slot (1/rate) less a service after the stall began: the stall is the slowest reply less a service, to the file's precision, plus up to that"+sampled+"; the file gives no rate, and a lower one, which it does not rule out, has a longer slot: no upper bound. Give the rate as rate=R")
}
