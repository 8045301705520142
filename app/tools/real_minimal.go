//go:build minimal

package tools

// runs is empty in the page's app.wasm: it never runs a tool for real
// (real_run.go).
var runs map[*Tool]*Real
