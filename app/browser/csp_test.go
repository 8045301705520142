//go:build !wasm

package browser

import (
	"strings"
	"testing"
	"time"

	"omission/app/site"
)

// TestBrowserContentSecurityPolicy: every page carries the policy and works
// under it with no violation; markup that would run script, added to the
// page afterwards, does not run.
func TestBrowserContentSecurityPolicy(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t)
	con := b.watchConsole(t)
	for _, page := range []struct{ path, ready string }{
		{"/", `document.getElementById("omission").dataset.state === "ready" && document.querySelectorAll("section.charts [data-chart] img").length === 4`},
		{"/article/", `document.querySelectorAll("[data-metric]").length > 20 && document.querySelectorAll("[data-chart] img").length >= 2`},
		{"/embed/?figure=spectrum&preset=tcp", `document.querySelectorAll("[data-chart] img").length === 1`},
		{"/embed/?figure=animation", `document.querySelector("[data-anim][data-ready=true]") !== null`},
	} {
		b.open(t, s.URL+page.path)
		b.waitFor(t, page.path+" drawn under the policy", page.ready)
		policy := eval[string](t, b, `(document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {}).content || ""`)
		if policy != site.ContentSecurityPolicy {
			t.Errorf("%s: policy %q", page.path, policy)
		}
		if errs := con.errors(); len(errs) > 0 {
			t.Errorf("%s: console errors under the policy: %q", page.path, errs)
		}
		if page.path == "/" {
			// The chart markers are placed through the CSSOM, not by a style
			// attribute the policy would refuse.
			left := eval[string](t, b, `document.querySelector("a.marker").style.left`)
			if !strings.HasSuffix(left, "%") {
				t.Errorf("a chart marker is not placed: left %q", left)
			}
		}
	}
	// Inline script and an inline handler, added to the DOM, do not run.
	b.exec(t, `window.__ran = [];
		const s = document.createElement("script"); s.textContent = "window.__ran.push('inline script')"; document.body.appendChild(s);
		document.body.insertAdjacentHTML("beforeend", '<img src="data:," onerror="window.__ran.push(\'onerror\')"><div onclick="window.__ran.push(\'onclick\')" id="csp-click">x</div>');
		document.getElementById("csp-click").click();`)
	time.Sleep(300 * time.Millisecond)
	if ran := eval[[]string](t, b, `window.__ran`); len(ran) > 0 {
		t.Errorf("injected markup ran: %q", ran)
	}
	// The browser said why: the policy refused them.
	refused := false
	for _, e := range con.errors() {
		refused = refused || strings.Contains(e, "Content Security Policy")
	}
	if !refused {
		t.Error("no Content Security Policy violation was reported for the injected script")
	}
}
