//go:build !wasm

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"

	"omission/app/site"
)

func staticCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("static", flag.ContinueOnError)
	web := fs.String("web", "web", "go-app resources, with the built app.wasm")
	out := fs.String("out", "static", "output directory")
	prefix := fs.String("prefix", "", "sub-path the site is served under, e.g. /omission")
	if err := parseArgs(fs, args, "", 0); err != nil {
		return err
	}
	version, err := site.Build(*web, *out, *prefix)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s (version %s, prefix %q)\n", *out, version, *prefix)
	return nil
}

// serveCmd builds the static site and serves it, so what runs locally is
// exactly what a static host serves, compressed (app/site).
func serveCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8000", "address to listen on")
	web := fs.String("web", "web", "go-app resources, with the built app.wasm")
	out := fs.String("out", "static", "where to write the site before serving it")
	if err := parseArgs(fs, args, "", 0); err != nil {
		return err
	}
	if _, err := site.Build(*web, *out, ""); err != nil {
		return err
	}
	handler, err := site.NewHandler(*out)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Omission is served on http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	err = http.Serve(ln, handler)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
