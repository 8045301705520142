package main

import (
	"fmt"
	"strings"

	"omission/app/fit"
	"omission/app/fitmsg"
)

// The fit panel's layout, made here and not in app.wasm: the page renders
// the nodes as they come (app/page, fit.go), each text a text node.

func el(tag, class string, kids ...fitmsg.Node) fitmsg.Node {
	n := fitmsg.Node{T: tag, K: kids}
	if class != "" {
		n.A = []string{"class", class}
	}
	return n
}

func text(s string) fitmsg.Node { return fitmsg.Node{X: s} }

// withAttr returns n with attributes added (name, value in turn).
func withAttr(n fitmsg.Node, attrs ...string) fitmsg.Node {
	n.A = append(n.A, attrs...)
	return n
}

// metric is a number the tests find by its data-metric.
func metric(name, value string) fitmsg.Node {
	return withAttr(el("strong", "", text(value)), "data-metric", name)
}

func table(class, caption string, head []string, rows [][]string, keys []string) fitmsg.Node {
	hs := make([]fitmsg.Node, 0, len(head))
	for _, h := range head {
		hs = append(hs, withAttr(el("th", "", text(h)), "scope", "col"))
	}
	trs := make([]fitmsg.Node, 0, len(rows))
	for i, r := range rows {
		tr := el("tr", "", withAttr(el("th", "", text(r[0])), "scope", "row"))
		for _, c := range r[1:] {
			tr.K = append(tr.K, el("td", "", text(c)))
		}
		if keys != nil {
			tr = withAttr(tr, "data-metric", keys[i])
		}
		trs = append(trs, tr)
	}
	return el("div", "table-wrap", el("table", class, el("caption", "", text(caption)), el("thead", "", el("tr", "", hs...)), el("tbody", "", trs...)))
}

func list(class string, items []string) fitmsg.Node {
	lis := make([]fitmsg.Node, 0, len(items))
	for _, s := range items {
		lis = append(lis, el("li", "", text(s)))
	}
	return el("ul", class, lis...)
}

// panel lays out a file's fit: the headline in plain words, whether the
// model explains the file, the fitted query and the link that opens it,
// the parameters, every number measured beside fitted, each tool's p99,
// what the file leaves free, and the notes. With toolsPending the tools'
// list is a line saying it is being computed, and the section's data-fit
// is "shown", not "done".
func panel(id int64, name string, v *fitmsg.View, toolsPending bool) fitmsg.Node {
	title := fmt.Sprintf("fit-%d-title", id)
	var head []fitmsg.Node
	if v.RecordedP99 != "" {
		head = append(head, text("Your test recorded p99 = "), metric("fit.recorded_p99", v.RecordedP99), text(". "))
	}
	is := "= "
	if strings.HasPrefix(v.OpenP99, "between ") {
		is = "" // a range the file leaves: "p99 between X and Y"
	}
	atRate := ""
	if v.AtModelRate != "" {
		atRate = " (" + v.AtModelRate + ")"
	}
	// The field beside the button takes the rate the question asks for.
	after := fit.OpenP99After(v.Assumes, v.AtModelRate != "", is == "", "beside the button above ", "")
	head = append(head, text("An open loop on the same server would have recorded p99 "+is), metric("fit.open_p99", v.OpenP99),
		text(after+". Requests never sent: "), metric("fit.never_sent", v.NeverSent), text(" of "+v.Planned+" planned"+atRate+"."))
	body := []fitmsg.Node{
		withAttr(el("h3", "", text("What "+name+"'s test hid")), "id", title),
		el("p", "fit-headline", head...),
	}
	if v.Explained {
		body = append(body, el("p", "legend", text(v.Verdict)))
	} else {
		body = append(body, withAttr(el("p", "fit-unexplained", text(v.Verdict)), "data-fit", "unexplained"))
	}
	label := v.Query
	if label == "" {
		label = "preset=bench"
	}
	body = append(body, el("p", "", text("The fitted model: "), withAttr(el("code", "fit-query", text(label)), "data-query", v.Query),
		text(" (the link below opens it)")))
	var params [][]string
	for _, p := range v.Params {
		params = append(params, []string{p.Name, p.Value, p.How})
	}
	body = append(body, table("fit-params", "The fitted parameters, and how the file gave each", []string{"parameter", "value", "how"}, params, nil))
	var rows [][]string
	var keys []string
	for _, r := range v.Rows {
		rows = append(rows, []string{r.Dist + " " + r.Name, r.Measured, r.Fitted, r.Diff})
		keys = append(keys, r.Dist+"."+r.Metric)
	}
	body = append(body, table("fit-table", "Every number of the file, measured beside the fitted model's", []string{"number", "measured", "fitted", "difference"}, rows, keys))
	if toolsPending {
		body = append(body, withAttr(el("p", "status fit-tools-pending", text("Computing what each tool would have printed at p99 for this server…")), "role", "status"))
	} else if len(v.Tools) > 0 {
		var items []string
		for _, t := range v.Tools {
			items = append(items, t.Name+": "+t.P99)
		}
		body = append(body, el("p", "", text("What each tool would have printed at p99 for this server"+atRate+":")), list("fit-tools", items))
	}
	if len(v.Ambiguous) > 0 {
		var items []string
		for _, a := range v.Ambiguous {
			items = append(items, a.Param+" = "+a.Value+", "+a.Range+": "+a.Why)
		}
		body = append(body, el("p", "", text("What the file leaves free (every value in the range fits as well):")), list("fit-free", items))
	}
	if len(v.Notes) > 0 {
		body = append(body, list("fit-notes", v.Notes))
	}
	state := "done"
	if toolsPending {
		state = "shown" // the fit, without the tools' list yet
	}
	return withAttr(el("section", "fit-panel", body...), "aria-labelledby", title, "data-fit", state)
}
