// Package address is the pages' URL query: the simulator's fields and the
// pages' own keys (PageKeys), read once (ParseAddress) and written in one
// order (Address.String). The visualiser, the article and the embeds write
// their URLs through it, and the simulation worker (app/worker) reads
// the page's query with its keys.
//
// It may import sim only: it links no go-app, so that a worker program of
// its own would
// not.
package address
