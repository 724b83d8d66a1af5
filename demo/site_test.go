package demo

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func mustGet(tb testing.TB, url string) string {
	tb.Helper()
	res, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
	if res.Header.Get("Cache-Control") != "no-store" {
		tb.Errorf("GET %s: Cache-Control %q", url, res.Header.Get("Cache-Control"))
	}
	return string(b)
}

// The shop and the card form are on two origins, and the checkout page
// frames the card form from the second one.
func TestServeTwoOrigins(t *testing.T) {
	s, err := Serve()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.Shop, "http://127.0.0.1:") || !strings.HasPrefix(s.Card, "http://localhost:") {
		t.Fatalf("origins %s, %s", s.Shop, s.Card)
	}
	page := mustGet(t, s.CheckoutURL())
	if !strings.Contains(page, `src="`+s.Card+`/card.html"`) || strings.Contains(page, cardOriginMark) {
		t.Errorf("checkout page does not frame %s/card.html:\n%s", s.Card, page)
	}
	if root := mustGet(t, s.Shop+"/"); root != page {
		t.Errorf("/ is not the checkout page")
	}
	card := mustGet(t, strings.Replace(s.Card, "localhost", "127.0.0.1", 1)+"/card.html")
	if !strings.Contains(card, "Card number") {
		t.Errorf("card form lacks its field:\n%s", card)
	}
	for _, name := range []string{"/checkout.js", "/card.js", "/shop.css"} {
		mustGet(t, s.Shop+name)
	}
}

// The site answers what a browser may ask besides its pages: HEAD, a file
// it does not have, a path out of the site, a method it does not serve, a
// request it cannot read — and a request in pieces, slowly.
func TestSiteAnswers(t *testing.T) {
	s, err := Serve()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	raw := func(req string) string {
		t.Helper()
		c, err := net.Dial("tcp", strings.TrimPrefix(s.Shop, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		line, rest, _ := strings.Cut(req, "\r\n")
		req = line + "\r\nConnection: close\r\n" + rest // one request: the server closes after it
		for _, part := range strings.SplitAfter(req, "\n") {
			c.Write([]byte(part))
			time.Sleep(5 * time.Millisecond)
		}
		b, _ := io.ReadAll(c)
		return string(b)
	}
	for _, c := range []struct{ req, status, body string }{
		{"HEAD /card.js HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 200 OK\r\n", ""},
		{"GET /nothing.html HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 404 Not Found\r\n", "404 page not found\n"},
		{"GET /. HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 404 Not Found\r\n", "404 page not found\n"},
		{"GET /../demo.go HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 404 Not Found\r\n", "404 page not found\n"},
		{"GET /%2e%2e/demo.go HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 404 Not Found\r\n", "404 page not found\n"},
		{"POST /checkout.html HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi", "HTTP/1.1 405 Method Not Allowed\r\n", "the demo shop answers GET and HEAD only\n"},
		{"GET /shop.css HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 200 OK\r\n", ""},
	} {
		got := raw(c.req)
		head, body, _ := strings.Cut(got, "\r\n\r\n")
		if !strings.HasPrefix(got, c.status) || c.body != "" && body != c.body || strings.HasPrefix(c.req, "HEAD") && body != "" {
			t.Errorf("%q: got\n%s", c.req, got)
		}
		if !strings.Contains(head, "Cache-Control: no-store") {
			t.Errorf("%q: head lacks no-store:\n%s", c.req, head)
		}
		if strings.Contains(c.req, "shop.css") && !strings.Contains(head, "Content-Type: text/css; charset=utf-8") {
			t.Errorf("%q: not served as CSS:\n%s", c.req, head)
		}
	}
	if got := raw("GET / HTTP/1.1\r\nHost: x\r\n" + strings.Repeat("X: "+strings.Repeat("a", 1000)+"\r\n", 40) + "\r\n"); !strings.HasPrefix(got, "HTTP/1.1 431") {
		t.Errorf("a 40 KB head: got %.80q", got)
	}
	if got := raw("GET checkout.html HTTP/1.1\r\nHost: x\r\n\r\n"); !strings.HasPrefix(got, "HTTP/1.1 400") {
		t.Errorf("a target that is not a path: got %.80q", got)
	}
}

// Close ends a connection the browser opened ahead and never used,
// rather than waiting out its deadline.
func TestSiteCloseEndsIdleConnections(t *testing.T) {
	s, err := Serve()
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", strings.TrimPrefix(s.Shop, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	time.Sleep(50 * time.Millisecond) // accepted
	start := time.Now()
	s.Close()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v with an idle connection open", d)
	}
}
