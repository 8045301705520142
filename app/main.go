// Command app is Omission's go-app program. Compiled to WebAssembly it is the
// site that runs in the browser: the visualiser (app/page), the article and
// its embeds (app/article). Natively it serves and generates that site and
// prints reports (cli.go).
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"omission/app/article"
	"omission/app/compute"
	"omission/app/page"
)

func main() {
	routes()
	app.RunWhenOnBrowser() // returns at once outside the browser
	nativeMain()
}

// routes registers every page. The same routes are used by the browser, the
// server and the static site generator. The visualiser runs simulations in
// the browser only (the static generator prerenders one page for every
// query); the article and the embeds keep their last few results.
func routes() {
	settings := compute.Browser(app.IsClient)
	figures := compute.NewCache(6, compute.FigureRequests)
	app.Route("/", func() app.Composer { return &page.Page{Settings: settings} })
	// Static hosts serve /article as /article/: both reach the page.
	app.RouteWithRegexp(`^/article/?$`, func() app.Composer { return &article.Article{ICache: figures} })
	app.RouteWithRegexp(`^/embed/?$`, func() app.Composer { return &article.Embed{ICache: figures} })
}
