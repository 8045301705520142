//go:build !wasm

package article

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/ui"
)

// The prerendering hooks: go-app calls them where it renders natively (the
// static generator, the test engine), never in the browser, so the
// browser's build leaves them out.

// OnPreRender runs where go-app renders natively (the static generator, the
// test engine): the generated HTML holds the article's numbers and figures
// at its own values.
func (a *Article) OnPreRender(ctx app.Context) {
	defer ui.Recover(ctx, "article")
	ctx.Page().SetTitle("%s · Omission", theArticle().title)
	a.load(ctx)
	a.kept = theArticle().keepState(a.raw, a.st)
}

// OnPreRender runs where go-app renders natively: the generated page holds
// the figure of the URL the generator asked for.
func (e *Embed) OnPreRender(ctx app.Context) {
	defer ui.Recover(ctx, "embed")
	if u := ctx.Page().URL(); u != nil {
		e.load(ctx, u.RawQuery)
	}
	ctx.Page().SetTitle("%s · Omission", e.title())
}

// OnPreRender runs where go-app renders natively: the figure is drawn at
// its default size (an embed's for the README's 660×420 frame).
func (f *chartFigure) OnPreRender(ctx app.Context) {
	defer ui.Recover(ctx, "figure")
	f.draw()
}
