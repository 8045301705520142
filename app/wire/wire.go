package wire

// Header is the part of every message the protocol reads: the request's
// number, and for the worker's own messages whether it is ready or why it
// failed; Cancel on a request.
type Header struct {
	ID     int64  `json:"id"`
	Ready  bool   `json:"ready,omitempty"`
	Err    string `json:"err,omitempty"`
	Cancel bool   `json:"cancel,omitempty"`
}

// Ready is the message a worker posts once it listens.
const Ready = `{"id":0,"ready":true}`

// Host is the name of the global object through which the program and
// the page talk (web/worker.js sets it in a Web Worker; web/page.js's
// stand-in, where the browser has no Web Workers, on the page's thread):
// pending is the queue of the messages that arrived while the program
// started, post(message) sends one to the page, warm is what the page
// asked to be done before it asks (Warm), and the program sets
// onmessage(data) to take each that comes after.
const Host = "omissionWire"
