package host

import "testing"

// The browser titles a page without a title of its own by its URL; such a
// stand-in is no title to quote.
func TestTitledByURL(t *testing.T) {
	for _, c := range []struct {
		title, url string
		want       bool
	}{
		{"127.0.0.1:8080/no-such-page.html", "http://127.0.0.1:8080/no-such-page.html", true},
		{"http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x", true},
		{"example.org/missing", "https://example.org/missing?q=1", true},
		{"Invalid ticket number – My Project", "http://trac.example/ticket/999", false},
		{"Not Found", "http://example.org/Not", false},
	} {
		if got := titledByURL(c.title, c.url); got != c.want {
			t.Errorf("titledByURL(%q, %q) = %v, want %v", c.title, c.url, got, c.want)
		}
	}
}
