package demo

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
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
// frame is cross-origin as it is on real shops.
type Site struct {
	Shop      string // http://127.0.0.1:PORT
	Card      string // http://localhost:PORT2
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
	s := &Site{}
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
	h := handler(files, s.Card, &s.bannerDue)
	for _, ln := range []net.Listener{ln1, ln2} {
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
		s.servers = append(s.servers, srv)
		go srv.Serve(ln)
	}
	return s, nil
}

// Close stops both servers.
func (s *Site) Close() error {
	var errs []error
	for _, srv := range s.servers {
		errs = append(errs, srv.Close())
	}
	return errors.Join(errs...)
}

// handler serves the site uncached; "/" is the checkout page.
func handler(files fs.FS, cardOrigin string, bannerDue *atomic.Bool) http.Handler {
	fsrv := http.FileServer(http.FS(files))
	checkout, _ := fs.ReadFile(files, "checkout.html")
	page := []byte(strings.ReplaceAll(string(checkout), cardOriginMark, cardOrigin))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Path == "/banner-due" {
			if bannerDue.Load() {
				w.Write([]byte("yes"))
			} else {
				w.Write([]byte("no"))
			}
			return
		}
		if r.URL.Path == "/" || r.URL.Path == "/checkout.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
			return
		}
		fsrv.ServeHTTP(w, r)
	})
}
