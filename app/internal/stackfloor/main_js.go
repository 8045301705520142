//go:build js && wasm

package main

import "github.com/maxence-charriere/go-app/v10/pkg/app"

func main() {
	app.Route("/", func() app.Composer { return &floor{} })
	app.RunWhenOnBrowser()
}
