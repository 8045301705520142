//go:build !(js && wasm)

package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// main serves the floor page from the working directory (its web/app.wasm)
// on -addr with go-app's Handler, or with -static writes its static site
// (go-app's generator) into a directory, for a server of another's: make
// bench serves it as Omission's own site is served (app/site's Finish and
// Handler).
func main() {
	app.Route("/", func() app.Composer { return &floor{} })
	addr := flag.String("addr", "127.0.0.1:8790", "listen address")
	static := flag.String("static", "", "write the static site into this directory and stop")
	flag.Parse()
	// Its icon is its own file (web/icon.png, beside app.wasm): go-app's
	// default is on GitHub, and go-app's loader shows it, so a machine
	// without a network held the page's load event for the name lookup.
	h := &app.Handler{Name: "floor", Title: "floor", Description: "the floor of a go-app page", Version: "floor", Icon: app.Icon{Default: "/web/icon.png"}}
	if *static != "" {
		if err := app.GenerateStaticWebsite(*static, h); err != nil {
			log.Fatal(err)
		}
		return
	}
	http.Handle("/", h)
	log.Printf("floor on http://%s/", *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}
