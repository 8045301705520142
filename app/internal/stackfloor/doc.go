// Command stackfloor is the floor of Omission's stack: a go-app page with one
// component that renders one element, #floor[data-state=ready] once it is
// mounted in the browser (prerendered: data-state=prerendered). Its
// app.wasm is built as Omission builds its own (app/internal/wasmbuild, the
// same flags); natively it serves that page with go-app's Handler. make
// bench loads it beside the site, alternately, and prints the page's times
// as ratios to it (BENCH page.*.vs_floor): what any go-app page pays to
// start, measured in the same run as what Omission pays.
//
// It may import the standard library only (and go-app). It is not named
// floorpage: ../shared/bench/floor/run.sh writes a floor page of its own to
// app/internal/floorpage/main.go in its clone of this tree, and a package
// of that name here made its build declare main twice.
package main
