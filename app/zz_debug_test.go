package main

import (
	"testing"
	"time"
)

func TestBrowserZZDebug(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t)
	con := b.watchConsole(t)
	b.open(t, s.URL+"/")
	b.waitReady(t, "")
	time.Sleep(2 * time.Second)
	con.errors()
	con.mu.Lock()
	con.msgs = nil
	con.mu.Unlock()
	for i := 0; i < 3; i++ {
		b.exec(t, `window.__t0 = performance.now(); console.log("DEBUG change", window.__t0); const box = document.getElementById("in-stall"); box.value = "`+[]string{"199ms", "200ms", "201ms"}[i]+`"; box.dispatchEvent(new Event("change", {bubbles: true}))`)
		time.Sleep(800 * time.Millisecond)
	}
	con.mu.Lock()
	for _, m := range con.msgs {
		t.Log(m.Text)
	}
	con.mu.Unlock()
}
