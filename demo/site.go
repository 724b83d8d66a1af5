package demo

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"path"
	"strings"
	"sync/atomic"
	"time"
)

//go:embed site
var siteFiles embed.FS

// cardOriginMark is replaced, in checkout.html, by the card form's origin.
const cardOriginMark = "{{CARD_ORIGIN}}"

// Site is the demo shop served on two loopback origins: the checkout on
// the first, the payment provider's card form on the second, so the card
// frame is cross-origin as it is on real shops. It is net/http's: the demo
// runs in grip-host, whose start no agent command pays (docs/cli-cost.md,
// "The CLI's fixed cost").
type Site struct {
	Shop      string // http://127.0.0.1:PORT
	Card      string // http://localhost:PORT2
	files     fs.FS
	checkout  []byte // checkout.html with the card form's origin filled in
	servers   []*http.Server
	bannerDue atomic.Bool // set by ReleaseBanner; the page polls /banner-due
}

// ReleaseBanner makes the checkout page show its cookie banner.
func (s *Site) ReleaseBanner() { s.bannerDue.Store(true) }

// CheckoutURL is the page the demo opens.
func (s *Site) CheckoutURL() string { return s.Shop + "/checkout.html" }

// Serve starts the demo site on two loopback ports.
func Serve() (*Site, error) {
	files, err := fs.Sub(siteFiles, "site")
	if err != nil {
		return nil, err
	}
	s := &Site{files: files}
	ln1, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ln2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ln1.Close()
		return nil, err
	}
	s.Shop = fmt.Sprintf("http://127.0.0.1:%d", ln1.Addr().(*net.TCPAddr).Port)
	s.Card = fmt.Sprintf("http://localhost:%d", ln2.Addr().(*net.TCPAddr).Port)
	checkout, err := fs.ReadFile(files, "checkout.html")
	if err != nil {
		ln1.Close()
		ln2.Close()
		return nil, err
	}
	s.checkout = []byte(strings.ReplaceAll(string(checkout), cardOriginMark, s.Card))
	for _, ln := range []net.Listener{ln1, ln2} {
		srv := &http.Server{Handler: s, ReadHeaderTimeout: answerTimeout, WriteTimeout: answerTimeout, MaxHeaderBytes: maxRequestHead}
		s.servers = append(s.servers, srv)
		go srv.Serve(ln)
	}
	return s, nil
}

// Close stops both servers and ends the connections still open (a browser
// opens some ahead of its requests, and keeps others alive).
func (s *Site) Close() error {
	var errs []error
	for _, srv := range s.servers {
		errs = append(errs, srv.Close())
	}
	return errors.Join(errs...)
}

// Limits on a request: its head, and the time to send it and read the
// answer. A browser's GET is well under a kilobyte.
const (
	maxRequestHead = 16 << 10
	answerTimeout  = 10 * time.Second
)

// ServeHTTP is the site: "/" is the checkout page; /banner-due says
// whether the cookie banner is due; the rest are the embedded files.
// Nothing is cached, so each run of the demo starts from the page as it is.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the demo shop answers GET and HEAD only", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case "/", "/checkout.html":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(s.checkout)
		return
	case "/banner-due":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if s.bannerDue.Load() {
			w.Write([]byte("yes"))
		} else {
			w.Write([]byte("no"))
		}
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(s.files, name) // a folder is no file: not found
	if err != nil {
		http.NotFound(w, r)
		return
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}
