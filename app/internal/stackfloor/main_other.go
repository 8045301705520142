//go:build !(js && wasm)

package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// main serves the floor page from the working directory (its web/app.wasm)
// on -addr.
func main() {
	app.Route("/", func() app.Composer { return &floor{} })
	addr := flag.String("addr", "127.0.0.1:8790", "listen address")
	flag.Parse()
	http.Handle("/", &app.Handler{Name: "floor", Title: "floor", Description: "the floor of a go-app page", Version: "floor"})
	log.Printf("floor on http://%s/", *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}
