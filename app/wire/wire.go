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

// Pending is the name of the worker script's queue of the messages that
// arrived while the program started.
const Pending = "omissionPending"
