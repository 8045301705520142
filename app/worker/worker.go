package worker

import (
	"bytes"
	"runtime"
	"slices"
	"strings"
	"time"

	"omission/app/address"
	"omission/app/charts"
	"omission/app/compute"
	"omission/app/measure"
	"omission/app/tools"
	"omission/app/view"
	"omission/sim"
)

// Request is what the page asks.
type Request struct {
	ID     int64  `json:"id"` // the page's run number: every response carries it (wire.Header)
	Query  string // the query to run (canonical, the page keys allowed)
	Charts ChartsOptions
	// Gen numbers the page's drawings of one run's charts: every chart
	// response carries it, so a redraw's charts replace the earlier ones.
	Gen int
	// Redraw asks for new charts of the last result (a toggle, a resize)
	// without running again; it runs when the last result is another
	// query's.
	Redraw bool
	// Cancel stops the request in progress, and does nothing else.
	Cancel bool `json:"cancel,omitempty"`
	// warm is the worker's own run of the address the page was loaded
	// with (Serve), made before the page asks: it posts nothing, and the
	// page's first request of the same query takes its view.
	warm bool

	// Tools to play against the run's server (the page key tools=).
	Tools []string `json:",omitempty"`
	// Vs is a second query run beside it (the page key vs=), "" for none.
	Vs string `json:",omitempty"`
	// Import are measurement files to read; the worker keeps those
	// Measured names (the page's list, the new files included), at most
	// MaxFiles. Measured names the kept ones to draw, in the page's order.
	Import   []File   `json:",omitempty"`
	Measured []string `json:",omitempty"`
	// Incomplete names those of them the fit's check found cut (the
	// page's app.wasm leaves that check to fit.wasm): their series are
	// named so.
	Incomplete []string `json:",omitempty"`

	// Sweep asks for a sweep of the query (the page key sweep=), run after
	// the query's own run and charts; SweepOnly asks for the sweep alone
	// when the query's run is the last one (a new spec or metric: the
	// run's charts are on screen already).
	Sweep     *SweepAsk `json:",omitempty"`
	SweepOnly bool      `json:",omitempty"`

	// Export asks for a file of the last run's recordings, and nothing
	// else: it never supersedes the request in progress (it is answered
	// between two of its slices or charts).
	Export *Export `json:",omitempty"`
}

// Export names a file of the run's recordings: Format is one of
// measure.ExportFormats(), Recording one recording ("" for all; an .hgrm
// holds one).
type Export struct {
	Format, Recording string
}

// PageCSVRows bounds the samples of a CSV the page writes (about 30 MB);
// a run with more is written as per-interval percentiles.
const PageCSVRows = 1_000_000

// ExportFile is a file written for an Export. Its bytes cross the worker
// boundary outside the JSON (as a Blob, Serve and Browser); Save hands it
// to the browser's downloads.
type ExportFile struct {
	Name    string // the download's file name
	Type    string // its media type
	Size    int
	Samples bool   `json:",omitempty"` // a CSV of every sample (else per-interval percentiles)
	Err     string `json:",omitempty"`
	Data    []byte `json:"-"`
	blob    any    // the worker's Blob of Data (browser_wasm.go)
}

// File is a measurement file the reader gave the page; it stays in the
// browser (this worker), never in the URL.
type File struct {
	Name string
	Data string
}

// MaxFiles is how many measurement files the page compares at once: a
// file past it replaces the oldest, with a notice naming it.
const MaxFiles = 3

// Measured is a file the worker read: what it holds, or why it could not be
// read.
type Measured struct {
	Name      string
	Format    string            `json:",omitempty"`
	Summaries []measure.Summary `json:",omitempty"`
	Points    [][]charts.Point  `json:",omitempty"` // per distribution: its own spectrum
	Err       string            `json:",omitempty"`
	// FitReads: the page's build does not read the file's format
	// (measure.ParseError's LeftOut), but fit.wasm does: the page offers
	// its fit.
	FitReads bool `json:",omitempty"`
}

// ChartsOptions say how to draw the charts; Width 0 draws none.
type ChartsOptions struct {
	Width  int
	Dark   bool
	Linear bool // linear latency axes
	CDF    bool // the distribution as a CDF
}

// Response is one message back.
type Response struct {
	ID       int64           `json:"id"`            // the request's (wire.Header)
	Gen      int             `json:",omitempty"`    // the request's Gen
	Progress float64         `json:",omitempty"`    // 0 to 1 while the run goes on in slices
	Sliced   bool            `json:",omitempty"`    // the run goes on beyond its first slice
	View     *view.View      `json:",omitempty"`    // the result, formatted
	Chart    *charts.Chart   `json:",omitempty"`    // one chart, in charts.Kinds order
	Charts   int             `json:",omitempty"`    // with Done: how many charts were drawn
	Err      string          `json:"err,omitempty"` // the run could not finish
	Tools    []*tools.Output `json:",omitempty"`    // what each tool of the request would report
	ToolsErr string          `json:",omitempty"`
	Variants []tools.Variant `json:",omitempty"` // the correction's variants, with the tools
	Vs       *view.View      `json:",omitempty"` // the second run, formatted
	VsErr    string          `json:",omitempty"`
	Measured []Measured      `json:",omitempty"` // files read
	Export   *ExportFile     `json:",omitempty"` // a file asked for
	Sweep    *SweepUpdate    `json:",omitempty"` // a batch of the sweep's points (after Done)
	Done     bool            `json:",omitempty"` // the run's charts are drawn: the request's last response, but for its sweep's points (Sweep.Done)
	Ms       float64         `json:",omitempty"` // with Done: the charts' drawing time
	// Mem, with Done, is the memory the Go runtime of whatever ran the
	// request holds from the system (runtime.MemStats.Sys), in bytes. A
	// WebAssembly memory never shrinks, so in a Web Worker it is the
	// worker's peak so far.
	Mem uint64 `json:",omitempty"`
}

// Beside reports whether r carries what the page shows beside the run:
// tools, the comparison, measured files.
func (r Response) Beside() bool {
	return r.Tools != nil || r.ToolsErr != "" || r.Vs != nil || r.VsErr != "" || r.Measured != nil
}

// Client sends requests to whatever runs them; responses come back to the
// function given when the client was made, on the caller's UI goroutine
// where the client dispatches them there (see Local and NewBrowser).
type Client interface {
	Send(Request)
	// Where says where the requests run: "worker" (a Web Worker) or
	// "page" (the page's own thread).
	Where() string
}

// server runs requests one at a time and keeps the last result, so that a
// redraw needs no run. in delivers requests; a newer one that arrives while
// a request is in progress supersedes it.
type server struct {
	settings compute.Settings
	post     func(Response)
	yield    func() // lets the requests that arrived be delivered
	in       chan Request

	last      *sim.Result
	lastQuery string
	warm      *view.View // the warm run's view, until the page asks for it

	tools   map[string]*tools.Output // by tool, for lastQuery
	vs      *sim.Result
	vsView  *view.View
	vsQuery string
	files   []*measure.File // the files of the page's list, oldest first (at most MaxFiles)
	sweep   sweepState      // the last sweep's points, for lastQuery
}

func newServer(s compute.Settings, post func(Response), yield func()) *server {
	return &server{settings: s, post: post, yield: yield, in: make(chan Request, 64)}
}

// loop serves requests until in is closed.
func (s *server) loop() {
	for req := range s.in {
		for next := &req; next != nil; {
			next = s.handle(*next)
		}
	}
}

// newer returns the latest request that arrived, if any, draining the rest:
// they are all older than it.
func (s *server) newer() *Request {
	var got *Request
	for {
		select {
		case r, ok := <-s.in:
			if !ok {
				return got
			}
			if r.Export != nil {
				s.export(r) // answered at once, superseding nothing
				continue
			}
			got = &r
		default:
			return got
		}
	}
}

// handle serves one request and returns a newer one that superseded it.
func (s *server) handle(req Request) *Request {
	if req.Cancel {
		return nil
	}
	if req.Export != nil {
		s.export(req)
		return nil
	}
	if len(req.Import) > 0 {
		s.read(req)
	}
	if req.SweepOnly && req.Sweep != nil && s.last != nil && req.Query == s.lastQuery {
		return s.runSweep(req)
	}
	if !req.Redraw || s.last == nil || req.Query != s.lastQuery {
		if next := s.run(req); next != nil {
			return next
		}
		if s.last == nil || s.lastQuery != req.Query {
			return nil // the run failed: nothing to draw
		}
	}
	if next := s.beside(req); next != nil {
		return next
	}
	if next := s.draw(req); next != nil || req.Sweep == nil {
		return next
	}
	return s.runSweep(req)
}

// read parses the files of req and keeps them, beside those of the
// page's list: a file the page removed is forgotten here too.
func (s *server) read(req Request) {
	named := map[string]bool{}
	for _, n := range req.Measured {
		named[n] = true
	}
	kept := s.files[:0]
	for _, f := range s.files {
		if named[f.Name] {
			kept = append(kept, f)
		}
	}
	s.files = kept
	var out []Measured
	for _, f := range req.Import {
		m := Measured{Name: f.Name}
		file, err := measure.Parse(f.Name, []byte(f.Data))
		if err != nil {
			m.Err = err.Error()
			pe, ok := err.(*measure.ParseError) // as Parse returns it (no errors.As: it costs app.wasm kB)
			m.FitReads = ok && pe.LeftOut
		} else {
			m.Format = file.Format.Title()
			m.Summaries = file.Summaries()
			for _, d := range file.Dists {
				m.Points = append(m.Points, filePoints(d))
			}
			s.keep(file)
		}
		out = append(out, m)
	}
	s.post(Response{ID: req.ID, Measured: out})
}

// export writes the file req.Export asks for, of the last run, which must
// be req.Query's.
func (s *server) export(req Request) {
	e := req.Export
	f := &ExportFile{Name: measure.FileName("", e.Format, e.Recording), Type: measure.MediaType(e.Format)}
	defer func() { s.post(Response{ID: req.ID, Export: f}) }()
	if s.last == nil || s.lastQuery != req.Query {
		f.Err = "the run is not finished yet: ask again when its numbers are shown"
		return
	}
	// The file says which run it holds.
	f.Name = measure.FileName(measure.RunName(s.last.Config.Preset, s.last.Hash), e.Format, e.Recording)
	set, err := measure.FromResult(s.last)
	if err != nil {
		f.Err = err.Error()
		return
	}
	sel, err := set.ForExport(e.Format, e.Recording)
	if err != nil {
		f.Err = err.Error()
		return
	}
	var b bytes.Buffer
	if err := set.Export(&b, e.Format, e.Recording, PageCSVRows); err != nil {
		f.Err = err.Error()
		return
	}
	f.Data, f.Size = b.Bytes(), b.Len()
	f.Samples = e.Format == "csv" && sel.CSVSamples(PageCSVRows)
}

// keep keeps a file read, replacing one of the same name.
func (s *server) keep(f *measure.File) {
	for i, old := range s.files {
		if old.Name == f.Name {
			s.files = append(s.files[:i], s.files[i+1:]...)
			break
		}
	}
	s.files = append(s.files, f)
	if len(s.files) > MaxFiles {
		s.files = s.files[len(s.files)-MaxFiles:]
	}
}

// filePoints is a measured distribution's own spectrum for the charts.
func filePoints(d measure.Dist) []charts.Point {
	out := make([]charts.Point, 0, len(d.Points))
	for _, p := range d.Points {
		out = append(out, charts.Point{P: p.Percentile / 100, Ns: p.Ns})
	}
	return out
}

// beside runs what req wants beside its run: its tools and its second
// query, posting each; a newer request between them supersedes the rest.
func (s *server) beside(req Request) *Request {
	cfg := s.last.Config
	if len(req.Tools) > 0 {
		if s.tools == nil {
			s.tools = map[string]*tools.Output{}
		}
		var outs []*tools.Output
		var errs []string
		for _, name := range req.Tools {
			o, ok := s.tools[name]
			if !ok {
				s.yield()
				if next := s.newer(); next != nil {
					return next
				}
				var err error
				if o, err = tools.Run(cfg, name); err != nil {
					errs = append(errs, err.Error())
					continue
				}
				s.tools[name] = o
			}
			outs = append(outs, o)
		}
		r := Response{ID: req.ID, Tools: outs}
		// What correcting afterwards does, with each interval: shown with
		// the tools, since it is the question their users ask.
		if vs, err := tools.Variants(s.last); err == nil {
			r.Variants = vs
		} else {
			errs = append(errs, err.Error())
		}
		if len(errs) > 0 {
			r.ToolsErr = strings.Join(errs, "; ")
		}
		s.post(r)
	}
	if req.Vs != "" {
		if next := s.runVs(req); next != nil {
			return next
		}
	}
	return nil
}

// runVs posts the comparison's run of req, running it unless it is the one
// kept; a newer request between two slices supersedes it.
func (s *server) runVs(req Request) *Request {
	if req.Vs != s.vsQuery || s.vs == nil {
		s.vs, s.vsQuery = nil, ""
		vcfg, err := sim.ParseQuery(req.Vs, address.PageKeys()...)
		var job *compute.Job
		if err == nil {
			job, err = compute.NewJob(req.ID, vcfg, s.settings)
		}
		for err == nil {
			var done bool
			if done, err = job.Slice(); err != nil || done {
				break
			}
			s.yield()
			if next := s.newer(); next != nil {
				job.Cancel()
				return next
			}
		}
		if err != nil {
			s.post(Response{ID: req.ID, VsErr: err.Error()})
			return nil
		}
		if s.vsView, err = job.Finish(); err != nil {
			s.post(Response{ID: req.ID, VsErr: err.Error()})
			return nil
		}
		s.vs, s.vsQuery = s.vsView.Result, req.Vs
	}
	v := *s.vsView
	v.Seq = req.ID
	s.post(Response{ID: req.ID, Vs: &v})
	return nil
}

// IncompleteWords follow a cut file's name wherever the page names it
// with its numbers: in the results table's column and the charts' series.
const IncompleteWords = " (INCOMPLETE: part of a run)"

// extra are the series req wants drawn beside the run's recordings.
func (s *server) extra(req Request) []charts.Series {
	var out []charts.Series
	for _, name := range req.Tools {
		if o, ok := s.tools[name]; ok {
			pts := make([]charts.Point, 0, 6)
			for i, pc := range sim.Percentiles() {
				pts = append(pts, charts.Point{P: float64(pc.PPM) / 1e6, Ns: o.P()[i]})
			}
			out = append(out, charts.Series{Name: name, Class: "tool", Points: append(pts, charts.Point{P: 1, Ns: o.MaxNs})})
		}
	}
	for _, name := range req.Measured {
		for _, f := range s.files {
			if f.Name != name {
				continue
			}
			for _, d := range f.Dists {
				label := f.Name
				if len(f.Dists) > 1 {
					label += " (" + d.Label + ")"
				}
				if slices.Contains(req.Incomplete, name) {
					label += IncompleteWords
				}
				out = append(out, charts.Series{Name: label, Class: "measured", Points: filePoints(d)})
			}
		}
	}
	if req.Vs != "" && req.Vs == s.vsQuery && s.vs != nil {
		for _, k := range []sim.Kind{sim.Closed, sim.Open} {
			out = append(out, charts.SeriesOf(&s.vs.Recordings[k], s.vs.Config.Rank, "vs "+k.String()))
		}
	}
	return out
}

// run simulates req's query in slices, posting progress, then its view.
// A warm run (Request.warm) posts nothing and keeps its view for the
// page's request of the same query, which then takes it at once; one that
// comes while the warm run is still going waits for it, and is returned.
func (s *server) run(req Request) *Request {
	if w := s.warm; w != nil && !req.warm {
		s.warm = nil
		if w.Query == req.Query {
			v := *w
			v.Seq = req.ID
			s.took(req, &v)
			return nil
		}
	}
	var waiting *Request // the page's request of the warm run's query
	say := func(r Response) {
		switch {
		case !req.warm:
			s.post(r)
		case waiting != nil:
			r.ID = waiting.ID
			s.post(r)
		}
	}
	cfg, err := sim.ParseQuery(req.Query, address.PageKeys()...)
	if err != nil {
		say(Response{ID: req.ID, Gen: req.Gen, Err: err.Error(), Done: true})
		return waiting
	}
	job, err := compute.NewJob(req.ID, cfg, s.settings)
	if err != nil {
		say(Response{ID: req.ID, Err: err.Error(), Done: true})
		return waiting
	}
	s.last, s.lastQuery = nil, ""
	for {
		done, err := job.Slice()
		if err != nil {
			say(Response{ID: req.ID, Err: err.Error(), Done: true})
			return waiting
		}
		if done {
			break
		}
		say(Response{ID: req.ID, Progress: job.Progress(), Sliced: true})
		s.yield()
		if next := s.newer(); next != nil {
			if req.warm && next.Query == req.Query && !next.Redraw {
				waiting = next
				continue
			}
			job.Cancel()
			return next
		}
	}
	v, err := job.Finish()
	if err != nil {
		say(Response{ID: req.ID, Err: err.Error(), Done: true})
		return waiting
	}
	if req.warm {
		s.warm = v
		return waiting
	}
	s.took(req, v)
	return nil
}

// warmUp queues the warm run of query, the address the page was loaded
// with, unless it does not parse.
func (s *server) warmUp(query string) {
	if cfg, err := sim.ParseQuery(query, address.PageKeys()...); err == nil {
		s.in <- Request{Query: cfg.Query(), warm: true}
	}
}

// took makes v, req's result, the last one and posts it.
func (s *server) took(req Request, v *view.View) {
	s.last, s.lastQuery, s.tools = v.Result, req.Query, nil
	if s.sweep.res != nil && s.sweep.res.Query != v.Result.Config.Query() {
		s.sweep = sweepState{} // another query's points
	}
	s.post(Response{ID: req.ID, View: v})
}

// draw draws the charts of the last result, posting each as it is drawn;
// a newer request between two charts supersedes the rest.
func (s *server) draw(req Request) *Request {
	o := req.Charts
	t0 := time.Now()
	n := 0
	if o.Width > 0 {
		for _, k := range charts.Kinds() {
			s.yield()
			if next := s.newer(); next != nil {
				return next
			}
			opts := chartOptions(k, o)
			if k.DrawsExtra() {
				opts.Extra = s.extra(req)
			}
			ch, err := charts.Render(s.last, k, opts)
			if err != nil {
				s.post(Response{ID: req.ID, Gen: req.Gen, Err: err.Error()})
				continue
			}
			n++
			s.post(Response{ID: req.ID, Gen: req.Gen, Chart: ch})
		}
	}
	s.post(Response{ID: req.ID, Gen: req.Gen, Done: true, Charts: n, Ms: float64(time.Since(t0).Microseconds()) / 1000, Mem: memSys()})
	return nil
}

// chartOptions are the charts package's options for kind k.
func chartOptions(k charts.Kind, o ChartsOptions) charts.Options {
	opts := charts.Options{Width: o.Width, Theme: charts.Light, CDF: o.CDF}
	if o.Dark {
		opts.Theme = charts.Dark
	}
	if o.Linear && !(k == charts.Distribution && !o.CDF) {
		opts.Y = charts.YLinear
	}
	return opts
}

// Local runs requests on the caller's own thread: in a goroutine that
// yields to the browser between slices (the page where no Web Worker can
// start), or, natively, at once (prerendering, tests).
type Local struct {
	s      *server
	inline bool
}

// NewLocal returns a client that runs requests in this program and hands
// responses to deliver. With inline, Send runs the request before it
// returns (natively: go-app's static generator and test engine wait for
// nothing else); without, a goroutine runs requests, calling yield between
// slices, and deliver must hand responses to the UI goroutine itself.
func NewLocal(s compute.Settings, inline bool, deliver func(Response), yield func()) *Local {
	l := &Local{s: newServer(s, deliver, yield), inline: inline}
	if !inline {
		go l.s.loop()
	}
	return l
}

// Send runs req (inline) or queues it for the goroutine.
func (l *Local) Send(req Request) {
	if l.inline {
		for next := &req; next != nil; {
			next = l.s.handle(*next)
		}
		return
	}
	l.s.in <- req
}

// Where is "page": a Local client runs requests on the caller's thread.
func (l *Local) Where() string { return "page" }

// memSys is runtime.MemStats.Sys: the bytes the Go runtime holds.
func memSys() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Sys
}
