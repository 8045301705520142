// Command app is Omission's go-app program. Compiled to WebAssembly it is the
// visualiser that runs in the browser; natively it serves the site, generates
// the static site and prints reports (see cli.go).
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	routes()
	app.RunWhenOnBrowser() // returns at once outside the browser
	nativeMain()
}

// routes registers every page. The same routes are used by the browser, the
// server and the static site generator.
func routes() {
	app.Route("/", func() app.Composer { return &page{} })
	// Static hosts serve /article as /article/: both reach the page.
	app.RouteWithRegexp(`^/article/?$`, func() app.Composer { return &articlePage{} })
	app.RouteWithRegexp(`^/embed/?$`, func() app.Composer { return &embedPage{} })
}
