package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// trial is one cold load of an app: its cold and warm timings.
type trial struct {
	Cold, Warm struct {
		First    *float64 `json:"first"`
		Ready    *float64 `json:"ready"`
		Hydrated *float64 `json:"hydrated"`
	}
}

type app struct {
	Bytes *struct {
		Total struct{ Raw, Gz, Wire float64 } `json:"total"`
	} `json:"bytes"`
	Cold      []trial `json:"cold"`
	Recompute []struct {
		Ms        float64 `json:"ms"`
		SettledMs float64 `json:"settledMs"`
	} `json:"recompute"`
	Drag []struct {
		Frames, Updates, TraceMs float64
	} `json:"drag"`
}

// median is the benchmark's: the middle value, or the mean of the two.
func median(v []float64) (float64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m], true
	}
	return (s[m-1] + s[m]) / 2, true
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: rivalratio results.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "rivalratio:", err)
		os.Exit(1)
	}
	var res struct {
		Apps struct{ Omission, Rival app } `json:"apps"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		fmt.Fprintln(os.Stderr, "rivalratio:", err)
		os.Exit(1)
	}
	a, b := res.Apps.Omission, res.Apps.Rival
	print := func(name, unit string, x, y []float64) {
		ma, okA := median(x)
		mb, okB := median(y)
		if !okA || !okB || mb == 0 {
			fmt.Printf("# page.%s.vs_rival: not measured\n", name)
			return
		}
		fmt.Printf("BENCH page.%s.omission %.1f %s\n", name, ma, unit)
		fmt.Printf("BENCH page.%s.rival %.1f %s\n", name, mb, unit)
		fmt.Printf("BENCH page.%s.vs_rival %.2f ratio\n", name, ma/mb)
	}
	cold := func(x app, f func(t trial) *float64) []float64 {
		var out []float64
		for _, t := range x.Cold {
			if v := f(t); v != nil {
				out = append(out, *v)
			}
		}
		return out
	}
	if a.Bytes != nil && b.Bytes != nil {
		print("bytes.wire", "bytes", []float64{a.Bytes.Total.Wire}, []float64{b.Bytes.Total.Wire})
		print("bytes.gzip", "bytes", []float64{a.Bytes.Total.Gz}, []float64{b.Bytes.Total.Gz})
	}
	print("first_result.cold", "ms", cold(a, func(t trial) *float64 { return t.Cold.First }), cold(b, func(t trial) *float64 { return t.Cold.First }))
	print("first_result.warm", "ms", cold(a, func(t trial) *float64 { return t.Warm.First }), cold(b, func(t trial) *float64 { return t.Warm.First }))
	// Interactive: Omission's own live result; the rival's first React commit.
	print("interactive.cold", "ms", cold(a, func(t trial) *float64 { return t.Cold.Ready }), cold(b, func(t trial) *float64 { return t.Cold.Hydrated }))
	print("interactive.warm", "ms", cold(a, func(t trial) *float64 { return t.Warm.Ready }), cold(b, func(t trial) *float64 { return t.Warm.Hydrated }))
	step := func(x app, settled bool) []float64 {
		var out []float64
		for _, r := range x.Recompute {
			out = append(out, map[bool]float64{false: r.Ms, true: r.SettledMs}[settled])
		}
		return out
	}
	print("step.result", "ms", step(a, false), step(b, false))
	print("step.last_dom_change", "ms", step(a, true), step(b, true))
	drag := func(x app, f func(frames, updates, trace float64) float64) []float64 {
		var out []float64
		for _, d := range x.Drag {
			out = append(out, f(d.Frames, d.Updates, d.TraceMs))
		}
		return out
	}
	print("drag.updates", "count", drag(a, func(_, u, _ float64) float64 { return u }), drag(b, func(_, u, _ float64) float64 { return u }))
	print("drag.longest_task", "ms", drag(a, func(_, _, t float64) float64 { return t }), drag(b, func(_, _, t float64) float64 { return t }))
}
