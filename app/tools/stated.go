//go:build !minimal

package tools

import "omission/app/measure"

// What each tool's file states of its run beyond its latencies
// (Tool.stated, asked by the fit through StatedIn). Each NAMEStated is in
// its tool's reader_NAME.go, beside the reader of the same file; the page's
// app.wasm, built with the minimal tag, runs no fit and leaves them out.
func init() {
	wrkTool.stated = func(data []byte, _ *measure.Dist) (s Stated) {
		s.Slow, s.SlowHi = -1, -1
		s.Requests, s.Duration, s.Conns = wrkStated(data)
		return s
	}
	wrk2Tool.stated = wrkTool.stated
	heyTool.stated = func(data []byte, _ *measure.Dist) (s Stated) {
		s.Slow, s.SlowHi = -1, -1
		s.Requests, s.Duration = heyStated(data)
		return s
	}
	abTool.stated = func(data []byte, _ *measure.Dist) (s Stated) {
		s.Slow, s.SlowHi = -1, -1
		s.Requests, s.Duration, s.Conns = abStated(data)
		return s
	}
	vegetaTool.stated = func(data []byte, _ *measure.Dist) (s Stated) {
		s.Slow, s.SlowHi = -1, -1
		s.Requests, s.Duration, s.Rate = vegetaStated(data)
		return s
	}
	ohaTool.stated = func(data []byte, _ *measure.Dist) (s Stated) {
		s.SlowHi = -1
		s.Requests, s.Duration, s.Conns, s.RateHint, s.Slow = ohaStated(data)
		return s
	}
	k6VUsTool.stated = func(data []byte, _ *measure.Dist) (s Stated) {
		s.Slow, s.SlowHi = -1, -1
		s.Requests, s.Duration, s.Conns, s.Dropped = k6Stated(data)
		return s
	}
	locustTool.stated = func(data []byte, d *measure.Dist) (s Stated) {
		s.Requests, s.Duration, s.Conns, s.Slow, s.SlowHi, s.DurationFrom = locustStated(data, d)
		return s
	}
	fortioTool.stated = func(data []byte, _ *measure.Dist) (s Stated) {
		s.SlowHi = -1
		s.Requests, s.Duration, s.Conns, s.Rate, s.Skips, s.Slow = fortioStated(data)
		s.SkipsKnown = true
		return s
	}
	bombardierTool.stated = func(data []byte, d *measure.Dist) (s Stated) {
		s.Slow, s.SlowHi = -1, -1
		s.Requests, s.Duration, s.Conns = bombardierStated(data, d)
		return s
	}
	autocannonTool.stated = func(data []byte, d *measure.Dist) (s Stated) {
		s.Slow, s.SlowHi = -1, -1
		s.Requests, s.Duration, s.Conns = autocannonStated(data, d)
		return s
	}
}
