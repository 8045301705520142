// Package charts draws Omission's four charts of a simulation result with
// gonum/plot's SVG backend (vg/vgsvg): the percentile spectrum, the latency
// distribution, latency over time and queue depth over time; and the
// landscape of a sweep (a run per point). It is plain
// Go with no browser code, tested natively. It may import sim, sim/sweep,
// app/units and app/jsonread (the chart's reader, decode.go) only.
//
// # Use
//
// Render is a pure function of a result and display options. Call it when
// the result or the options change (never from a go-app Render) and keep
// the Chart: its SVG, caption and table are what the page shows.
//
//	res, _ := sim.Run(cfg)
//	ch, err := charts.Render(res, charts.Spectrum, charts.Options{Width: 640, Height: 360})
//	// ch.SVG       one <svg> element, for app.Raw or a download
//	// ch.Caption   the text alternative, with the chart's key numbers
//	// ch.Table     the numbers behind the chart, for a screen-reader table
//	// ch.Markers   the spectrum's percentile markers, for links to checks
//
// A Chart is returned rather than separate strings so that the markers and
// the availability of a chart travel with it. Kind.String is the
// data-chart name of the chart's container ("spectrum", "distribution",
// "latency-time", "queue-depth", "landscape").
//
// # The charts
//
// The charts are one table, kinds in render.go: a row per Kind with its
// name, title, whether it stacks panels, whether it draws Options.Extra
// and its draw function. Kinds, String, Title, ParseKind, Render and the
// article's embed (its allowed figure= values) read it; a new chart is a
// Kind constant, its row and a file with its draw function.
//
// Spectrum: latency by percentile, one line per recording, on an x axis
// spaced by log10(1/(1−p)) as HdrHistogram plots it (PercentileScale and
// PercentileTicks: 0%, 90%, 99%, 99.9%, …), running to one decade past the
// largest recording's last sample and never short of 99.999%. Markers sit
// at p50, p90, p99, p99.9 and p99.99 at the recording's own numbers (its P
// values, as in the table); Chart.Markers gives their position in px and
// the id of the check on each number ("open.p99_9", the page's
// id="check-open.p99_9"). The latency axis is log unless Options.Y is
// YLinear; latencies of 0 are drawn on its floor.
//
// Distribution: each recording's share of samples in log-spaced latency
// bins (10 per decade, 5 on a narrow chart), or with Options.CDF its share
// at or below each latency; the threshold of the "above" count is a dashed
// line.
//
// LatencyTime: one panel per measured recording (closed, paced, open; the
// corrected recordings have no requests of their own): each request's
// latency against its due time (paced: its send time), drawn as the min–max
// envelope of each px column so that no single slow request is lost, stall
// windows shaded.
//
// QueueDepth: one panel per client: requests sent and not yet answered
// (filled) and, where it differs (a closed loop behind its schedule),
// requests due and not yet answered (dashed); stall windows shaded. The
// largest count in each px column is drawn.
//
// Landscape: a chart of a sweep (Options.Sweep, sweep.Result), not of
// one run, so Kinds leaves it out and SweepKinds has it. One metric
// (Options.Metric, LandscapeMetrics: a percentile, max, mean, the share
// above the threshold or the paced client's requests never sent) of each
// recording against the swept field, a glyph per point; the base query's
// value a dashed vertical line; refused points crosses on the x axis; the
// closed forms of the closed and open loops (the paced client's for
// never_sent) wide pale bands under their lines at the points where they
// hold (sim.DeriveClosedForms), the caption saying where and, where none
// holds, why. The x axis is log for a geometric sweep, the y axis when the
// values span more than 100× (Options.Y overrides it).
//
// The time series need each request's send and reply times, which sim
// keeps only up to sim.ExactSamples; beyond, Render returns a chart with
// Available false whose SVG and caption say so.
//
// # Style
//
// Every recording has one Look (colour, dash, marker glyph) in every
// chart; LookOf and Style give it to the page for its table and legend, and
// Swatch draws it as a small inline SVG. The colours are Okabe and Ito's
// palette for colour-blind readers, with a light and a dark variant
// (Colours gives each theme's background and ink). Text is measured with
// gonum's embedded Liberation Sans and named in the SVG as FontFamily,
// whose fallbacks share its metrics; no font is embedded.
//
// # Size and speed
//
// Sizes are in CSS px: the SVG's user unit is one px, and its width,
// height and viewBox say so, so it can be scaled with CSS (markers then
// scale by the same factor). Rendering the four charts of the bench
// preset takes a few ms natively; BenchmarkRender* measure each.
package charts
