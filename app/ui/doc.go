// Package ui holds what every page of the site shares: the names of the
// states and actions its components talk through, the one list of URL keys
// the pages keep beside the simulator's query, the address every page reads
// and writes its URL through (Address: read once, written in one place, in
// one order, with the simulator's escaping), the guard that turns a panic
// in a handler into a message, the browser's scheduling (yield, after
// paint, next task) and the small pieces every figure uses (a chart as an
// image, its data table, the reader's colour scheme, links to the
// visualiser).
//
// It may import go-app, app/address, app/charts, app/units, app/yield and
// sim; no other package of the app. Every other app package but the
// simulation worker's may import it.
package ui
