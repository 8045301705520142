package page

import (
	"fmt"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/address"
	"omission/app/charts"
	"omission/app/measure"
	"omission/app/tools"
	"omission/app/ui"
	"omission/app/units"
	"omission/app/view"
	"omission/app/worker"
	"omission/sim"
)

// What the page shows beside the run: what real load generators would have
// printed for the same server (tools=), a second parameter set (vs=), and
// the reader's own measurement files. The first two live in the URL; the
// files stay in the browser (the worker reads and keeps them) and never
// reach the URL or any server.

// beside is the page's state of those three.
type beside struct {
	seq      int64           // the run they are of
	tools    []*tools.Output // what each tool of tools= would report
	toolsErr string
	variants []tools.Variant
	vs       *view.View // the comparison's run
	vsErr    string
	files    []worker.Measured    // files read, oldest first (at most worker.MaxFiles read, as many not)
	reading  string               // the file being read
	notice   string               // what became of the files last read or removed
	pending  []worker.File        // files to send with the next request
	saved    string               // what became of the last download asked for
	raw      map[string]string    // the files' text by name, for their fit (fit.go)
	fits     map[string]app.Value // what page.js said of each file's fit (fit.go)
	checks   map[string]fileCheck // what it said of whether each is whole (fitstate.go)

	cols   []view.Extra // the table's columns of all this (refreshExtras)
	notes  []string     // the checks' lines about the files
	listed []listedFile // the files as the import panel lists them
}

// refreshExtras formats the columns and notes the page shows of what is
// beside the run, when it changed (never in Render).
func (p *Page) refreshExtras() {
	p.beside.cols, p.beside.notes = p.extras(), p.fileNotes()
	p.beside.listed = listFiles(p.beside.files, p.beside.checks, ui.PrefersTheme())
}

// renderBeside lays out the panels beside the run.
func (p *Page) renderBeside() app.UI {
	names, err := p.toolNames()
	terr := p.beside.toolsErr
	if err != nil {
		terr = err.Error()
	}
	canon, verr := p.vsQuery()
	vmsg := p.beside.vsErr
	if verr != nil {
		vmsg = verr.Error()
	}
	return app.Div().Class("beside").Body(
		&toolsPanel{ISelected: names, IOutputs: p.beside.tools, IVariants: p.beside.variants, IErr: terr, IOpen: p.shown, IRefused: p.why},
		&comparePanel{IVs: p.addr.Get(address.KeyVs), ICanon: canon, IErr: vmsg, IView: p.beside.vs},
		&downloadsPanel{IReady: p.shown != nil && p.shown.Seq == p.seq, ISaved: p.beside.saved, IRefused: p.why},
		&importPanel{IFiles: p.beside.listed, IFits: p.beside.fits, IReading: p.beside.reading, INotice: p.beside.notice, IQuery: p.cfg.Query()},
	)
}

// The actions of the panels beside the run, handled by the page.
const (
	actionTool    = "omission/page/tool"    // Value: a tool's name, toggled in tools=
	actionCompare = "omission/page/compare" // Value: true to compare with the current state, false to stop
	actionImport  = "omission/page/import"  // Value: a worker.File
	actionForget  = "omission/page/forget"  // Value: a file's name
	actionExport  = "omission/page/export"  // Value: a worker.Export
)

// toolNames are the tools of the URL's tools= that exist, and the error of
// the rest.
func (p *Page) toolNames() ([]string, error) {
	v := p.addr.Get(address.KeyTools)
	if v == "" {
		return nil, nil
	}
	return tools.ParseList(v)
}

// vsQuery is the canonical comparison query of the URL's vs=, and why it
// does not run.
func (p *Page) vsQuery() (string, error) {
	v := p.addr.Get(address.KeyVs)
	if v == "" {
		return "", nil
	}
	cfg, err := sim.ParseQuery(v)
	if err != nil {
		return "", fmt.Errorf("vs: %v", err)
	}
	if fe := cfg.Within(pageBudget(cfg)); fe != nil {
		return "", fmt.Errorf("vs: %v", fe)
	}
	if q := cfg.Query(); q != "" {
		return q, nil
	}
	return "preset=bench", nil // the bench preset's canonical query is empty; "" means no comparison
}

// besideRequest adds what the page shows beside the run to a request.
func (p *Page) besideRequest(r *worker.Request) {
	r.Tools, _ = p.toolNames()
	r.Vs, _ = p.vsQuery() // an invalid vs= runs nothing; its message says why
	for _, f := range p.beside.files {
		if f.Err == "" {
			r.Measured = append(r.Measured, f.Name)
			if p.beside.checks[f.Name].State == "incomplete" {
				r.Incomplete = append(r.Incomplete, f.Name)
			}
		}
	}
	if len(p.beside.pending) > 0 {
		r.Import, p.beside.pending = p.beside.pending, nil
		for _, f := range r.Import {
			r.Measured = append(r.Measured, f.Name)
		}
	}
}

// saveExport hands a file the worker wrote to the browser's downloads and
// says what it was.
func (p *Page) saveExport(f *worker.ExportFile) {
	if f.Err != "" {
		p.beside.saved = "Not written: " + f.Err
		return
	}
	worker.Save(f)
	what := ""
	if strings.HasSuffix(f.Name, ".csv") && !f.Samples {
		what = fmt.Sprintf(": percentiles per interval, the run has more than %s samples", units.Count(worker.PageCSVRows))
	}
	p.beside.saved = fmt.Sprintf("Saved %s (%s)%s.", f.Name, units.Bytes(f.Size), what)
}

// besideResponse takes the parts of a response that go beside the run.
func (p *Page) besideResponse(r worker.Response) {
	b := &p.beside
	if r.View != nil && r.ID != b.seq {
		b.seq, b.tools, b.toolsErr, b.variants, b.vs, b.vsErr = r.ID, nil, "", nil, nil, ""
	}
	if r.Tools != nil || r.ToolsErr != "" {
		b.tools, b.toolsErr, b.variants = r.Tools, r.ToolsErr, r.Variants
	}
	if r.Vs != nil || r.VsErr != "" {
		b.vs, b.vsErr = r.Vs, r.VsErr
	}
	if r.Measured != nil {
		var notes []string
		for _, m := range r.Measured {
			if n := b.keep(m); n != "" {
				notes = append(notes, n)
			}
		}
		b.reading, b.notice = "", strings.Join(notes, " ")
	}
	if r.View != nil || r.Beside() {
		p.refreshExtras()
	}
}

// keep keeps a file read (or why it could not be), replacing one of the
// same name. Past worker.MaxFiles files read (or as many that could not
// be) the oldest of its kind goes, as the worker's goes. It returns what
// it replaced, for the panel's notice ("" when nothing).
func (b *beside) keep(m worker.Measured) string {
	notice := ""
	for i, old := range b.files {
		if old.Name == m.Name {
			b.files = slices.Delete(b.files, i, i+1)
			notice = m.Name + " replaces the file of the same name read before."
			break
		}
	}
	b.files = append(b.files, m)
	failed := m.Err != ""
	n := 0
	for _, f := range b.files {
		if (f.Err != "") == failed {
			n++
		}
	}
	if n <= worker.MaxFiles {
		return notice
	}
	for i, f := range b.files {
		if (f.Err != "") == failed {
			b.files = slices.Delete(b.files, i, i+1)
			b.setFit(f.Name, nil)
			what := "compares at most %d files"
			if failed {
				what = "lists at most %d files it could not read"
			}
			return fmt.Sprintf("The page "+what+": %s replaces %s, the oldest.", worker.MaxFiles, m.Name, f.Name)
		}
	}
	return notice
}

// handleBeside registers the panels' actions.
func (p *Page) handleBeside(ctx app.Context) {
	p.handleFit(ctx)
	ctx.Handle(actionTool, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "tools")
		name, _ := a.Value.(string)
		names, _ := p.toolNames()
		var out []string
		found := false
		for _, n := range names {
			if n == name {
				found = true
				continue
			}
			out = append(out, n)
		}
		if !found {
			out = append(out, name)
		}
		if _, err := tools.ParseList(strings.Join(out, ",")); err != nil {
			return
		}
		p.setKeys(ctx, map[string][]string{address.KeyTools: {strings.Join(out, ",")}})
		p.besideChanged()
	})
	ctx.Handle(actionCompare, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "compare")
		on, _ := a.Value.(bool)
		v := ""
		if on {
			v = p.cfg.Query()
			if v == "" {
				v = "preset=bench" // the comparison's own query, never empty
			}
		}
		p.setKeys(ctx, map[string][]string{address.KeyVs: {v}})
		p.besideChanged()
	})
	ctx.Handle(actionImport, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "import")
		f, ok := a.Value.(worker.File)
		if !ok {
			return
		}
		p.beside.pending = append(p.beside.pending, f)
		p.beside.setFit(f.Name, nil)
		p.beside.reading = f.Name
		p.besideChanged()
	})
	ctx.Handle(actionExport, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "export")
		e, ok := a.Value.(worker.Export)
		if !ok || p.client == nil || p.shown == nil || p.shown.Seq != p.seq {
			return
		}
		p.beside.saved = "Writing " + measure.FileName(measure.RunName(p.cfg.Preset, p.shown.Hash), e.Format, e.Recording) + "…"
		p.client.Send(worker.Request{ID: p.seq, Query: p.cfg.Query(), Export: &e})
	})
	ctx.Handle(actionForget, func(ctx app.Context, a app.Action) {
		defer ui.Recover(ctx, "import")
		name, _ := a.Value.(string)
		var out []worker.Measured
		for _, f := range p.beside.files {
			if f.Name != name {
				out = append(out, f)
			}
		}
		p.beside.files = out
		p.beside.setFit(name, nil)
		p.beside.notice = name + " removed."
		p.refreshExtras()
		p.besideChanged()
	})
}

// besideChanged asks for the run's extras again (the run itself is kept
// in the worker: a redraw), or lets the run in flight take them.
func (p *Page) besideChanged() {
	if p.client == nil || !p.Settings.Simulate || p.refused {
		return
	}
	if p.shown != nil && p.shown.Seq == p.seq {
		p.charts.done = false
		p.send(p.cfg, true)
		return
	}
	if p.running {
		p.send(p.cfg, false)
	}
}

// extras are the table's columns beside the recordings.
func (p *Page) extras() []view.Extra {
	var out []view.Extra
	b := &p.beside
	if p.shown == nil {
		return nil
	}
	for _, o := range b.tools {
		vals := map[string]float64{"planned": float64(o.Planned), "sent": float64(o.Sent), "count": float64(o.Recorded), "max": float64(o.MaxNs)}
		for i, pc := range sim.Percentiles() {
			vals[pc.Name] = float64(o.P()[i])
		}
		x := view.NewExtra("tools."+o.Name, o.Name, o.Plain, "tool", vals, "what "+o.Name+" would report, by its own rule")
		zeroCells(x, o)
		out = append(out, x)
	}
	n := 0
	for _, f := range b.files {
		for i, s := range f.Summaries {
			key := "measured"
			if n > 0 {
				key = fmt.Sprintf("measured%d", n+1)
			}
			n++
			label := "measured: " + f.Name
			if len(f.Summaries) > 1 {
				label += " (" + s.Label + ")"
			}
			label += checkWords(b.checks[f.Name])
			_ = i
			out = append(out, view.NewExtra(key, label, s.FormatTitle+", "+s.Precision, "measured", summaryValues(s), "read from "+f.Name))
		}
	}
	if b.vs != nil && b.vs.Seq == p.seq || b.vs != nil && b.seq == p.seq {
		for _, k := range sim.Kinds() {
			name, _ := view.Label(k)
			out = append(out, view.NewExtra("vs."+k.String(), "vs "+name, "the comparison's run: "+sim.QueryWords(b.vs.Query), "vs", b.vs.Values(k.String()), "the comparison's run"))
		}
		mine, theirs := p.shown.Values(sim.Open.String()), b.vs.Values(sim.Open.String())
		delta := map[string]float64{}
		for m, x := range theirs {
			if y, ok := mine[m]; ok {
				delta[m] = x - y
			}
		}
		out = append(out, view.NewExtra("delta.open", "Δ open loop", "the comparison's open loop less this run's", "delta", delta, "vs.open − open"))
	}
	return out
}

// zeroCells shows a tool's latencies its rounding made 0 as the tool
// prints them, and why on hover.
func zeroCells(x view.Extra, o *tools.Output) {
	if o.Zero == nil || o.Recorded == 0 {
		return
	}
	for m, c := range x.Cells {
		if c.Attr == "ns" && c.Exact == "0" {
			c.Text = zeroText(o)
			c.Title = o.Name + " prints " + o.Zero.Printed + ": " + o.Zero.Why
			x.Cells[m] = c
		}
	}
}

// zeroText is a latency a tool's rounding made 0, as the tool prints it
// ("0 ms").
func zeroText(o *tools.Output) string {
	return strings.TrimSpace(o.Zero.Printed + " " + o.Zero.Unit)
}

// listedFile is a file as the import panel lists it: what the worker read
// and the look of each of its distributions in the charts.
type listedFile struct {
	worker.Measured
	Looks []fileLook
	Check fileCheck // whether it is whole, as far as known
}

// fileLook is how one distribution of a file is drawn: its index among
// the measured series (charts.MeasuredLook), in words, and a swatch (a
// data: URL of its SVG).
type fileLook struct {
	N         int
	What, Src string
}

// listFiles gives each distribution of the files read its look, in the
// order the worker draws them (the files read, oldest first).
func listFiles(files []worker.Measured, checks map[string]fileCheck, th charts.Theme) []listedFile {
	out := make([]listedFile, 0, len(files))
	n := 0
	for _, f := range files {
		l := listedFile{Measured: f, Check: checks[f.Name]}
		for _, s := range f.Summaries {
			what := charts.MeasuredLookName(n, th)
			if len(f.Summaries) > 1 {
				what = s.Label + ": " + what
			}
			l.Looks = append(l.Looks, fileLook{N: n, What: what, Src: ui.SVGDataURL(charts.MeasuredSwatch(n, th, 28, 10))})
			n++
		}
		out = append(out, l)
	}
	return out
}

// summaryValues are a measured distribution's numbers by row metric: those
// the file determines.
func summaryValues(s measure.Summary) map[string]float64 {
	out := map[string]float64{}
	put := func(m string, v *int64) {
		if v != nil {
			out[m] = float64(*v)
		}
	}
	if s.Count != nil {
		out["count"] = float64(*s.Count)
	}
	if s.MeanNs != nil {
		out["mean"] = *s.MeanNs
	}
	put("p50", s.P50Ns)
	put("p90", s.P90Ns)
	put("p99", s.P99Ns)
	put("p99_9", s.P999Ns)
	put("p99_99", s.P9999Ns)
	put("max", s.MaxNs)
	return out
}

// fileNotes are the checks' lines about the files read: what each holds.
func (p *Page) fileNotes() []string {
	var out []string
	for _, f := range p.beside.files {
		if f.Err != "" {
			out = append(out, f.Name+": could not be read: "+f.Err)
			continue
		}
		for _, s := range f.Summaries {
			line := fmt.Sprintf("%s (%s, %s): ", f.Name, s.FormatTitle, s.Label)
			if s.Count != nil {
				line += units.Count(*s.Count) + " samples"
			} else {
				line += "no count"
			}
			if s.MinNs != nil && s.MaxNs != nil {
				line += ", " + units.Duration(*s.MinNs) + " to " + units.Duration(*s.MaxNs)
			}
			line += "; precision " + s.Precision
			if len(s.Missing) > 0 {
				line += "; the file does not give " + strings.Join(s.Missing, ", ")
			}
			if c := p.beside.checks[f.Name]; c.State == "incomplete" {
				line += "; INCOMPLETE, it lacks " + strings.Join(c.Lacks, "; and ")
			}
			out = append(out, line)
		}
	}
	return out
}

// readFile reads a file the reader gave in the browser (the import
// panel's file input, which a drop or the first screen's chooser also
// fills: web/page.js) and sends it to the page: refused before reading
// when over measure.MaxFileSize.
func readFile(ctx app.Context, file app.Value) {
	if !file.Truthy() {
		return
	}
	name := file.Get("name").String()
	if size := file.Get("size").Int(); size > measure.MaxFileSize {
		ctx.Dispatch(func(ctx app.Context) {
			ctx.SetState(stateImportErr, fmt.Sprintf("%s is %s bytes: the page reads files of at most %s bytes", name, units.Count(int64(size)), units.Count(measure.MaxFileSize)))
		})
		return
	}
	var done, failed app.Func
	release := func() { done.Release(); failed.Release() }
	done = app.FuncOf(func(_ app.Value, args []app.Value) any {
		text := ""
		if len(args) > 0 {
			text = args[0].String()
		}
		ctx.Dispatch(func(ctx app.Context) {
			ctx.SetState(stateImportErr, "")
			ctx.NewActionWithValue(actionImport, worker.File{Name: name, Data: text})
		})
		release()
		return nil
	})
	failed = app.FuncOf(func(_ app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { ctx.SetState(stateImportErr, name+" could not be read by the browser") })
		release()
		return nil
	})
	file.Call("text").Call("then", done).Call("catch", failed)
}

// stateImportErr is the import control's message (a file refused before
// it was read).
const stateImportErr = "omission/page/import-error"
