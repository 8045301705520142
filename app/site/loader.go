//go:build !wasm

package site

import (
	"fmt"
	"regexp"
	"strings"
)

// go-app (v10.1.11, pkg/app/http.go:770 and scripts.go's appJS) starts a
// page in three ways this site does not want:
//
//   - every page's body ends with a loader (aside#app-wasm-loader) that
//     covers the whole window until app.wasm runs, over the prerendered
//     page the static generator wrote: a reader saw "Loading the
//     simulator… 45%" on a blank screen for a second, not the numbers,
//     and without JavaScript saw it for ever;
//   - app.js fetches app.wasm through fetchWithProgress, which reads the
//     body chunk by chunk on the page's thread, writes the loader's
//     percentage into the DOM at each chunk and hands the compiler a
//     Response of its own making; and it starts only once the document is
//     parsed (app.js is deferred);
//   - app.js registers the service worker at once, and its install fetches
//     every file the site caches (app.wasm again, fit.wasm, the pages)
//     while app.wasm downloads and compiles: on this project's 2-core
//     machine a cold start answered in 1,031 ms with it and 601 ms with
//     the worker registered once the page is idle (make bench of the day,
//     three trials with their browsers left open; the floor at 323 and
//     293 ms).
//
// Finish removes the loader from every page (dropLoader), preloads
// app.wasm from the head (addPreload) and replaces app.js's start with one
// that compiles the fetch's own response as it arrives, then registers the
// service worker when the page is idle, within 2 s (patchAppJS). Until the
// page's program mounts, web/page.js says on the prerendered page that it
// is starting, and omissionLoadFailed says so if it cannot.

// loaderRE is go-app's loader element, whatever order its attributes came
// in.
var loaderRE = regexp.MustCompile(`(?s)\s*<aside [^>]*id="app-wasm-loader"[^>]*>.*?</aside>`)

// dropLoader removes go-app's loader from a page.
func dropLoader(page []byte) ([]byte, error) {
	if n := len(loaderRE.FindAllIndex(page, -1)); n != 1 {
		return nil, fmt.Errorf("go-app's loader (aside#app-wasm-loader) found %d times in a page, not once: has go-app changed?", n)
	}
	return loaderRE.ReplaceAll(page, nil), nil
}

// wasmPreload is the head's link that starts app.wasm's download while the
// document is parsed. It matches app.js's fetch (mode cors, credentials
// same-origin), so the browser hands that fetch the preloaded response.
func wasmPreload(url string) string {
	return `<link rel="preload" href="` + url + `" as="fetch" type="application/wasm" crossorigin="anonymous">`
}

// addPreload puts wasmPreload at the start of a page's head, before the
// styles and scripts it would otherwise wait behind in the document.
func addPreload(page []byte, wasmURL string) ([]byte, error) {
	const head = "<head>"
	if n := strings.Count(string(page), head); n != 1 {
		return nil, fmt.Errorf("a page's <head> found %d times, not once", n)
	}
	return []byte(strings.Replace(string(page), head, head+"\n    "+wasmPreload(wasmURL), 1)), nil
}

// appJSStart and appJSEnd bound go-app's goappInitWebAssembly in app.js;
// fetchWithProgress runs from appJSProgress to the first line that is a
// lone closing brace.
const (
	appJSStart    = "async function goappInitWebAssembly() {"
	appJSEnd      = "function goappCanLoadWebAssembly() {"
	appJSProgress = "async function fetchWithProgress(url, progess) {"
)

// initWasm is this site's goappInitWebAssembly: app.wasm compiled from the
// fetch's own response (WebAssembly.instantiate from its bytes where the
// browser has no instantiateStreaming), started once the static page's
// paint is recorded (web/page.js, omissionPainted), and a failure said on
// the page.
const initWasm = `async function goappInitWebAssembly() {
  if (!goappCanLoadWebAssembly()) {
    return;
  }
  try {
    const go = new Go();
    const response = fetch(%q);
    const wasm = WebAssembly.instantiateStreaming
      ? await WebAssembly.instantiateStreaming(response, go.importObject)
      : await WebAssembly.instantiate(await (await response).arrayBuffer(), go.importObject);
    if (window.omissionPainted) {
      await window.omissionPainted();
    }
    go.run(wasm.instance);
  } catch (err) {
    console.error("loading wasm failed: ", err);
    if (window.omissionLoadFailed) {
      window.omissionLoadFailed(String(err));
    }
  }
  if (window.requestIdleCallback) {
    window.requestIdleCallback(() => goappInitServiceWorker(), { timeout: 2000 });
  } else {
    setTimeout(() => goappInitServiceWorker(), 2000);
  }
}

`

// appJSWorker is app.js's registration of the service worker, at once.
const appJSWorker = "\ngoappInitServiceWorker();\n"

// patchAppJS replaces go-app's goappInitWebAssembly with initWasm (which
// fetches wasmURL, then registers the service worker once the page is
// idle) and removes fetchWithProgress and the registration at once.
func patchAppJS(js []byte, wasmURL string) ([]byte, error) {
	if strings.Count(string(js), appJSWorker) != 1 {
		return nil, fmt.Errorf("app.js: go-app's registration of the service worker not found once: has go-app changed?")
	}
	s := strings.Replace(string(js), appJSWorker, "\n", 1)
	i, j, k := strings.Index(s, appJSStart), strings.Index(s, appJSEnd), strings.Index(s, appJSProgress)
	if i < 0 || j < i || k < j || strings.Count(s, appJSStart) != 1 || strings.Count(s, appJSProgress) != 1 {
		return nil, fmt.Errorf("app.js: go-app's goappInitWebAssembly, goappCanLoadWebAssembly and fetchWithProgress not found in that order, once each: has go-app changed?")
	}
	if !strings.Contains(s[i:j], "fetchWithProgress(\""+wasmURL+"\"") {
		return nil, fmt.Errorf("app.js: go-app's start does not fetch %s", wasmURL)
	}
	end := strings.Index(s[k:], "\n}\n")
	if end < 0 {
		return nil, fmt.Errorf("app.js: go-app's fetchWithProgress has no end: has go-app changed?")
	}
	return []byte(s[:i] + fmt.Sprintf(initWasm, wasmURL) + s[j:k] + s[k+end+len("\n}\n"):]), nil
}
