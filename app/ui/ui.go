package ui

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/address"
	"omission/app/charts"
)

// States the components follow (ctx.ObserveState) and set.
const (
	// StateResult is the result on show, a view.View published by the page
	// once its headline and table are painted (the article and the embeds
	// publish theirs when mounted). Its Result is nil when no result is for
	// the query on show (refused, failed).
	StateResult = "omission/result"
	// StateProof is the id of the number or check the reader asked to see.
	StateProof = "omission/proof"
	// StateFault is the last panic caught in a handler or hook.
	StateFault = "omission/fault"
	// StateURL is the query of the page's URL, published by the page that
	// owns the URL whenever it changes (a load, back and forward, a write).
	StateURL = "omission/url"
)

// Actions a component sends to the page that owns the URL.
const (
	// ActionKeys asks the URL's owner to set page keys (its Value is a
	// url.Values of keys from PageKeys; an empty value removes a key),
	// replacing the history entry.
	ActionKeys = "omission/keys"
)

// On wraps an event handler so that a panic in it is reported on the page
// instead of ending the app, and gives it an event scope. go-app keeps an
// element's handler across renders when the handlers compare equal, and it
// compares them by code pointer: every closure made here has the same one,
// so the scope (unique per element and per captured value) is what tells
// them apart. Use it as el.OnClick(ui.On("scope", h)).
func On(scope string, h app.EventHandler) (app.EventHandler, app.EventOption) {
	return func(ctx app.Context, e app.Event) {
		defer Recover(ctx, scope)
		h(ctx, e)
	}, app.EventScope(scope)
}

// Recover, deferred, turns a panic into the StateFault state.
func Recover(ctx app.Context, where string) {
	if r := recover(); r != nil {
		msg := fmt.Sprintf("%s: %v", where, r)
		app.Log("omission: recovered from a panic in " + msg)
		ctx.SetState(StateFault, msg)
	}
}

// NowOrAfter runs f at once when delay is not positive, and otherwise after
// delay on the UI goroutine with the update that the timer would cause
// prevented and a panic caught as where: the debounced URL writes of the
// article and the animation.
func NowOrAfter(ctx app.Context, delay time.Duration, where string, f func(app.Context)) {
	if delay <= 0 {
		f(ctx)
		return
	}
	ctx.After(delay, func(ctx app.Context) {
		defer Recover(ctx, where)
		ctx.PreventUpdate()
		f(ctx)
	})
}

// PanicError is a recovered panic as an error.
type PanicError struct{ V any }

func (e PanicError) Error() string { return fmt.Sprintf("internal error: %v", e.V) }

// RootPrefix is the path the site is served under ("" at a host's root).
func RootPrefix() string { return strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/") }

// VisualiserLink is the address of the visualiser with a query.
func VisualiserLink(q string) string {
	if q == "" {
		return RootPrefix() + "/"
	}
	return RootPrefix() + "/?" + q
}

// SVGDataURL makes an SVG an image address: shown with <img>, it is a
// picture, never markup in the page.
func SVGDataURL(svg string) string {
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg))
}

// ChartTable is a chart's data as a table a screen reader can read, folded
// under a summary; title, when given, names its box.
//
// In the browser the table's rows join the page only while it is open: a
// closed <details> shows nothing, and the four charts' tables are a third of
// the visualiser's nodes, which go-app would otherwise build when it takes
// over the prerendered page and again with every new chart. The prerendered
// HTML (native) always holds them.
func ChartTable(t charts.Table, title ...string) app.UI {
	if len(t.Header) == 0 {
		return app.Text("")
	}
	name := "The data behind this chart"
	if len(title) > 0 && title[0] != "" {
		name = "The data behind the chart " + title[0]
	}
	return &chartTable{ITable: t, IName: name}
}

type chartTable struct {
	app.Compo
	ITable charts.Table
	IName  string
	open   bool // the reader opened it (the browser's toggle event)
}

func (c *chartTable) Render() app.UI {
	toggle, scope := On("chart-data/toggle", c.onToggle)
	body := []app.UI{app.Summary().Text("The data behind this chart")}
	if c.open || !app.IsClient {
		body = append(body, chartTableBox(c.ITable, c.IName))
	}
	return app.Details().Class("chart-data").On("toggle", toggle, scope).Body(body...)
}

func (c *chartTable) onToggle(ctx app.Context, e app.Event) {
	if open := ctx.JSSrc().Get("open").Bool(); open != c.open {
		c.open = open
		return
	}
	ctx.PreventUpdate()
}

// chartTableBox is the table in a box of its own that scrolls and that the
// keyboard can reach, so that it never widens the page.
func chartTableBox(t charts.Table, name string) app.UI {
	head := make([]app.UI, len(t.Header))
	for i, h := range t.Header {
		head[i] = app.Th().Scope("col").Text(h)
	}
	rows := make([]app.UI, len(t.Rows))
	for i, r := range t.Rows {
		cells := make([]app.UI, len(r))
		for j, c := range r {
			if j == 0 {
				cells[j] = app.Th().Scope("row").Text(c)
			} else {
				cells[j] = app.Td().Text(c)
			}
		}
		rows[i] = app.Tr().Body(cells...)
	}
	return app.Div().Class("data-scroll").Attr("role", "group").Aria("label", name).TabIndex(0).Body(
		app.Table().Body(app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...)),
	)
}

// PrefersTheme is the colour scheme the reader's system asks for.
func PrefersTheme() charts.Theme {
	if app.IsClient {
		if mq := app.Window().Call("matchMedia", "(prefers-color-scheme: dark)"); mq.Truthy() && mq.Get("matches").Bool() {
			return charts.Dark
		}
	}
	return charts.Light
}

// OwnURL makes the component of ctx the owner of its page's URL, for a page
// with no URL state of its own but the keys its figures set (the article,
// an embed): it publishes the URL's query as StateURL and writes the keys
// of ActionKeys into the URL, replacing the entry. The visualiser owns its
// URL itself (app/page).
func OwnURL(ctx app.Context) {
	if u := ctx.Page().URL(); u != nil {
		ctx.SetState(StateURL, u.RawQuery)
	}
	ctx.Handle(ActionKeys, func(ctx app.Context, a app.Action) {
		defer Recover(ctx, "keys")
		keys, ok := a.Value.(url.Values)
		u := ctx.Page().URL()
		if !ok || u == nil {
			return
		}
		q := address.SetKeys(u.RawQuery, keys)
		if q == u.RawQuery {
			return
		}
		v := *u
		v.RawQuery, v.Fragment, v.RawFragment = q, "", ""
		ctx.Page().ReplaceURL(&v)
		ctx.SetState(StateURL, q)
	})
}

// ReplaceQuery makes q the query of the page's URL in place (the history
// entry is replaced, the fragment kept) and publishes it as StateURL: how
// the article and an embed drop the keys their rule does not take (Strays),
// as the visualiser does.
func ReplaceQuery(ctx app.Context, q string) {
	u := ctx.Page().URL()
	if u == nil || u.RawQuery == q {
		return
	}
	v := *u
	v.RawQuery = q
	ctx.Page().ReplaceURL(&v)
	ctx.SetState(StateURL, q)
}

// AttrSafe percent-encodes what an attribute's value may not hold as go-app
// writes it, for the JSON a prerendered page keeps in a data- attribute
// (the visualiser's result, the article's state and figures): go-app
// quotes a prerendered attribute with strconv.Quote, which writes a quote
// as \" (ending an HTML attribute there) and doubles each backslash; & and
// < would be read as the start of an entity or a tag by some readers.
// web/page.js reads the value back with decodeURIComponent. Before this the
// JSON came to the browser cut at its first quote, and the app ran the
// simulation again at every load of the static site.
func AttrSafe(s string) string { return attrSafe.Replace(s) }

var attrSafe = strings.NewReplacer("%", "%25", `"`, "%22", `\`, "%5C", "&", "%26", "<", "%3C", ">", "%3E")
