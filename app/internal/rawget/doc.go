// Package rawget is the HTTP client of the tests of the built site (app/browser's
// size_test.go and app/site's compress_test.go): it sends a request as
// given, with no Accept-Encoding of its own, no decompression and no
// redirect followed, and reads the whole reply, so that a test sees the
// bytes and headers the server wrote.
//
// It may import the standard library and brotli only.
package rawget
