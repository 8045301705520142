package routes

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/article"
	"omission/app/compute"
	"omission/app/page"
)

// Register registers every page. The article and the embeds keep their last
// few results.
func Register() {
	// In the browser runs go in slices of 12 ms (a Web Worker's are its
	// own: app/worker); the static generator prerenders each page with its
	// real numbers at once.
	settings := compute.Browser(true)
	if !app.IsClient {
		settings = compute.Settings{Simulate: true, Slice: time.Hour, Prerender: true}
	}
	figures := compute.NewCache(6, compute.FigureRequests)
	app.Route("/", func() app.Composer { return &page.Page{Settings: settings} })
	// Static hosts serve /article as /article/: both reach the page. (Plain
	// routes, not RouteWithRegexp: the browser build links no regexp.)
	for _, p := range []string{"/article", "/article/"} {
		app.Route(p, func() app.Composer { return &article.Article{ICache: figures} })
	}
	for _, p := range []string{"/embed", "/embed/"} {
		app.Route(p, func() app.Composer { return &article.Embed{ICache: figures} })
	}
}
