//go:build js && wasm

package wire

import "syscall/js"

// Listen hands take every request the page posts to this program, as a
// string: first those that waited in the host's queue, then each as it
// comes (on the JavaScript turn that delivers it: take must not block);
// then it posts Ready. Messages that are not strings are not requests and
// are dropped.
func Listen(take func(msg string)) {
	h := host()
	give := func(v js.Value) {
		if v.Type() == js.TypeString {
			take(v.String())
		}
	}
	if p := h.Get("pending"); p.Truthy() {
		for i := 0; i < p.Length(); i++ {
			give(p.Index(i))
		}
		h.Set("pending", js.Global().Get("Array").New())
	}
	h.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			give(args[0])
		}
		return nil
	}))
	Post(Ready)
}

// Post sends the page one message: a JSON string.
func Post(msg string) { host().Call("post", msg) }

// PostWith sends the page a JSON string with a Blob beside it, as
// {json, blob}.
func PostWith(msg string, blob js.Value) {
	host().Call("post", map[string]any{"json": msg, "blob": blob})
}

// Warm returns what the page gave the program to do before it asks (the
// simulation worker's: the query of the address the page was loaded
// with), and whether it gave one. It rides on the init message, not on
// the program's arguments, which wasm_exec.js holds to a few kilobytes.
func Warm() (string, bool) {
	w := host().Get("warm")
	if w.Type() != js.TypeString {
		return "", false
	}
	return w.String(), true
}

// host is the script's end of the channel (Host).
func host() js.Value { return js.Global().Get(Host) }
