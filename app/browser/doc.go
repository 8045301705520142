// Package browser holds no code of its own: its tests build the static site
// as app/site does, serve it as app/site does, and drive the pages in headless
// Chromium over what a reader sees (the DOM, the URL, the files the page
// writes), holding them to the command line's numbers. They reach the program
// only through its exported surface: routes.Register, site.Build,
// site.NewHandler and cli.Run.
//
// They run when OMISSION_BROWSER=1 and skip with a message otherwise: make
// test-browser (part of make test) runs a smoke set that reaches each part
// of the site once; make test-long (OMISSION_BROWSER_LONG=1) runs them all;
// make bench the page's timings. TestWasmSize, TestBuiltSite and TestWasmExecShipped check the
// built app.wasm and site when OMISSION_WASM=1 (make test-built). Being
// tests only, it may import none of the project's packages in its code.
package browser
