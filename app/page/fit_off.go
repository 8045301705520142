//go:build !fitpage

package page

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Without -tags fitpage the page does not offer the fit (fit.go): its
// code would take app.wasm over its budget (see the README's size
// section); fit.wasm and its worker are built and shipped either way.
const fitOn = false

func fitControls([]fitState, string) []app.UI { return nil }

func (p *Page) handleFit(app.Context) {}
