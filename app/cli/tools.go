//go:build !wasm

package cli

import (
	"fmt"
	"io"
	"net/url"
	"omission/app/address"
	"strings"

	"omission/app/tools"
	"omission/app/view"
	"omission/sim"
)

// The report command's tool outputs (issue 12): `report -tool NAME QUERY`
// prints what that tool would print for the run, and `report -json` adds
// tools.<name> for every tool named in the query's tools= key.

// toolsKey is the page key that selects tools; the simulator ignores it.
const toolsKey = address.KeyTools

// toolNames returns the tools named in the query's tools= key.
func toolNames(query string) ([]string, error) {
	if i := strings.IndexByte(query, '?'); i >= 0 {
		query = query[i+1:]
	}
	if i := strings.IndexByte(query, '#'); i >= 0 {
		query = query[:i]
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return nil, err
	}
	return tools.ParseList(strings.Join(vals[toolsKey], ","))
}

// toolCmd prints one tool's text, or for a tool whose per-request file
// is what it stands for (k6 --out csv), that file.
func toolCmd(w io.Writer, cfg sim.Config, name string) error {
	run, file := tools.Run, false
	if t, ok := tools.Lookup(name); ok && t.PerRequest() {
		run, file = tools.RunJSON, true
	}
	out, err := run(cfg, name)
	if err != nil {
		return &exitError{2, fmt.Errorf("report -tool: %v", err)}
	}
	text := out.Text
	if file {
		text = out.File
	}
	_, err = io.WriteString(w, text)
	return err
}

// toolJSON is one tool in the report's JSON.
type toolJSON struct {
	Planned  int64 `json:"planned"`
	Sent     int64 `json:"sent"`
	Recorded int64 `json:"recorded"`
	Dropped  int64 `json:"dropped"`
	sim.Tail[int64]
	Text string `json:"text"`
}

// reportJSON is sim's report with the tools the query names.
type reportJSON struct {
	sim.Report
	Tools map[string]toolJSON `json:"tools,omitempty"`
	// The comparison (vs.go): its report, and its metrics less this
	// run's, per recording.
	Vs    *sim.Report                   `json:"vs,omitempty"`
	Delta map[string]map[string]float64 `json:"delta,omitempty"`
	// Headline is what the page's headline says of the run, in words
	// (view.Said): its summary line, each card and the story.
	Headline *view.Said `json:"headline,omitempty"`
}

func withTools(rep sim.Report, cfg sim.Config, query string) (reportJSON, error) {
	out := reportJSON{Report: rep}
	names, err := toolNames(query)
	if err != nil {
		return out, &exitError{2, fmt.Errorf("invalid query: %v", err)}
	}
	for _, n := range names {
		o, err := tools.Run(cfg, n)
		if err != nil {
			return out, &exitError{2, err}
		}
		if out.Tools == nil {
			out.Tools = map[string]toolJSON{}
		}
		out.Tools[n] = toolJSON{o.Planned, o.Sent, o.Recorded, o.Dropped, o.Tail, o.Text}
	}
	return out, nil
}
