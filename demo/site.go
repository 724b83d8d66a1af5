package demo

import (
	"bufio"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"path"
	"strings"
	"sync"
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
//
// It is served by the small HTTP/1.1 responder below rather than
// net/http: net/http brings its client, HTTP/2 and TLS into grip's one
// binary, and Go runs their package init at every start of every command,
// the agent's `grip tabs` included (docs/ARCHITECTURE.md, "The CLI's
// fixed cost"). The responder answers GET and HEAD for the site's files, one
// request per connection; its only client is the demo's own browser.
type Site struct {
	Shop      string // http://127.0.0.1:PORT
	Card      string // http://localhost:PORT2
	files     fs.FS
	checkout  []byte // checkout.html with the card form's origin filled in
	listeners []net.Listener
	mu        sync.Mutex
	open      map[net.Conn]bool // the connections being answered, which Close ends
	closed    bool
	answering sync.WaitGroup
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
	s := &Site{files: files, open: map[net.Conn]bool{}}
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
	s.listeners = []net.Listener{ln1, ln2}
	for _, ln := range s.listeners {
		go s.accept(ln)
	}
	return s, nil
}

// Close stops both listeners, ends the connections still open (a browser
// opens some ahead of its requests) and waits for their goroutines.
func (s *Site) Close() error {
	var errs []error
	for _, ln := range s.listeners {
		errs = append(errs, ln.Close())
	}
	s.mu.Lock()
	s.closed = true
	for c := range s.open {
		c.Close()
	}
	s.mu.Unlock()
	s.answering.Wait()
	return errors.Join(errs...)
}

func (s *Site) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return // closed
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.open[c] = true
		s.answering.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.answering.Done()
			s.answer(c)
			lingeringClose(c)
			s.mu.Lock()
			delete(s.open, c)
			s.mu.Unlock()
		}()
	}
}

// Limits on a request: its line and headers, and the time to send them
// and read the answer. A browser's GET is well under a kilobyte.
const (
	maxRequestHead = 16 << 10
	answerTimeout  = 10 * time.Second
)

// answer reads one request from c and writes its response.
func (s *Site) answer(c net.Conn) {
	_ = c.SetDeadline(time.Now().Add(answerTimeout))
	req, err := readRequest(bufio.NewReader(io.LimitReader(c, maxRequestHead)))
	if err != nil {
		writeResponse(c, "GET", 400, "text/plain; charset=utf-8", []byte(err.Error()+"\n"))
		return
	}
	status, ctype, body := s.respond(req)
	writeResponse(c, req.method, status, ctype, body)
}

// respond is the site: "/" is the checkout page; /banner-due says whether
// the cookie banner is due; the rest are the embedded files.
func (s *Site) respond(req request) (status int, ctype string, body []byte) {
	if req.method != "GET" && req.method != "HEAD" {
		return 405, "text/plain; charset=utf-8", []byte("the demo shop answers GET and HEAD only\n")
	}
	switch req.path {
	case "/", "/checkout.html":
		return 200, "text/html; charset=utf-8", s.checkout
	case "/banner-due":
		if s.bannerDue.Load() {
			return 200, "text/plain; charset=utf-8", []byte("yes")
		}
		return 200, "text/plain; charset=utf-8", []byte("no")
	}
	name := strings.TrimPrefix(path.Clean(req.path), "/")
	b, err := fs.ReadFile(s.files, name)
	if err != nil || !fs.ValidPath(name) {
		return 404, "text/plain; charset=utf-8", []byte("not found\n")
	}
	ctype = mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	return 200, ctype, b
}

// request is what the site reads of an HTTP request: its method and the
// path of its target (without the query).
type request struct {
	method, path string
}

// readRequest reads a request's line and its headers, which the site does
// not need but must read past. A request it cannot read is an error that
// says why; nothing is served for it.
func readRequest(r *bufio.Reader) (request, error) {
	line, err := readLine(r)
	if err != nil {
		return request{}, err
	}
	method, rest, ok1 := strings.Cut(line, " ")
	target, proto, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || method == "" || strings.ContainsAny(method, "\t ") || !strings.HasPrefix(proto, "HTTP/1.") {
		return request{}, fmt.Errorf("malformed request line %q", cut(line, 80))
	}
	if !strings.HasPrefix(target, "/") {
		return request{}, fmt.Errorf("request target %q is not a path", cut(target, 80))
	}
	target, _, _ = strings.Cut(target, "?")
	for {
		h, err := readLine(r)
		if err != nil {
			return request{}, err
		}
		if h == "" {
			return request{method: method, path: target}, nil
		}
		if name, _, ok := strings.Cut(h, ":"); !ok || name == "" || strings.ContainsAny(name, " \t") {
			return request{}, fmt.Errorf("malformed header line %q", cut(h, 80))
		}
	}
}

// readLine reads one CRLF- (or LF-) terminated line without its end.
func readLine(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		if errors.Is(err, io.EOF) {
			return "", errors.New("the request ended early, or its head is over 16 KB")
		}
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), nil
}

// lingeringClose ends the connection after a response: it half-closes it,
// then reads (briefly, boundedly) what the browser may still send, so that
// unread bytes do not make the kernel reset the connection and lose the
// response before the browser has read it.
func lingeringClose(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
		_ = c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		_, _ = io.Copy(io.Discard, io.LimitReader(c, 256<<10))
	}
	c.Close()
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func statusText(status int) string {
	switch status {
	case 200:
		return "OK"
	case 400:
		return "Bad Request"
	case 404:
		return "Not Found"
	}
	return "Method Not Allowed"
}

// writeResponse writes a whole response, uncached, and ends the
// connection after it (Connection: close): the browser opens another for
// its next request.
func writeResponse(w io.Writer, method string, status int, ctype string, body []byte) {
	head := fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
		status, statusText(status), ctype, len(body))
	if method == "HEAD" {
		body = nil
	}
	_, _ = w.Write(append([]byte(head), body...))
}
