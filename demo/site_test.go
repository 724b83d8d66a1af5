package demo

import (
	"io"
	"net/http"
	"strings"
	"testing"
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
