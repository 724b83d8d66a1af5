package host

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
	"testing"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

func TestFoldMessages(t *testing.T) {
	m := func(level, text string, line int) protocol.ConsoleMessage {
		return protocol.ConsoleMessage{Level: level, Source: "console", Text: text, URL: "http://a.example/app.js", Line: line}
	}
	got := foldMessages([]protocol.ConsoleMessage{m("info", "tick", 3), m("error", "boom", 9), m("info", "tick", 3), m("info", "tick", 4), m("info", "tick", 3)})
	if len(got) != 3 || got[0].Text != "tick" || got[0].Count != 3 || got[1].Count != 1 || got[2].Line != 4 {
		t.Fatalf("fold = %+v, want tick ×3 (first place), boom, tick at another line", got)
	}
}

func TestLevels(t *testing.T) {
	for _, tc := range []struct {
		level string
		ok    bool
	}{{"", true}, {"error", true}, {"warning", true}, {"info", true}, {"debug", true}, {"verbose", false}, {"ERROR", false}} {
		if _, err := levelRank(tc.level); (err == nil) != tc.ok {
			t.Errorf("levelRank(%q) err %v", tc.level, err)
		}
	}
	e, _ := levelRank("error")
	w, _ := levelRank("warning")
	i, _ := levelRank("")
	d, _ := levelRank("debug")
	if !(e < w && w < i && i < d) {
		t.Errorf("ranks %d %d %d %d: the most severe first", e, w, i, d)
	}
}

// The console's text keeps the newest messages within the budget and says
// how many it left out and how to read them.
func TestRenderConsoleBudget(t *testing.T) {
	res := &protocol.ConsoleResult{Tab: protocol.TabRef{ID: 3, Title: "App", URL: "http://a.example/"}, Hidden: 2, Blocked: 1}
	for i := 0; i < 500; i++ {
		res.Messages = append(res.Messages, protocol.ConsoleMessage{Level: "info", Text: strings.Repeat("x", 60) + string(rune('a'+i%26)), Count: 1, Line: i + 1, URL: "http://a.example/a.js"})
	}
	renderConsole(res, protocol.ConsoleArgs{Tab: 3, Budget: 1000})
	if res.Omitted == 0 || len(res.Messages)+res.Omitted != 500 {
		t.Fatalf("omitted %d, kept %d", res.Omitted, len(res.Messages))
	}
	if last := res.Messages[len(res.Messages)-1]; last.Line != 500 {
		t.Errorf("the newest message is not kept: %+v", last)
	}
	for _, want := range []string{"Console of tab 3 · App", "older messages left out", "--budget N --tab 3", "2 below info not shown: grip console --level debug --tab 3", "1 from frames blocked by policy left out"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, res.Text)
		}
	}
	if tok := len(res.Text) / 3; tok > 1100 {
		t.Errorf("text is ~%d tokens, over the budget of 1000", tok)
	}
}

func TestConsoleLine(t *testing.T) {
	got := consoleLine(protocol.ConsoleMessage{Level: "error", Text: "Uncaught Error: boom\n  at x", URL: "http://a.example/app.js", Line: 12, Column: 5, Count: 3, Worker: true})
	if want := "[error] Uncaught Error: boom ⏎ at x (http://a.example/app.js:12:5) [worker] ×3"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}

// What came from a blocked site's frame, or names a blocked site, is left
// out; an opaque or unknown origin alone decides nothing.
func TestBlockedFrom(t *testing.T) {
	p, err := policy.Parse([]byte("block *.bank.example\nread mail.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		origin, url string
		want        bool
	}{
		{"https://www.bank.example", "", true},
		{"https://shop.example", "https://cdn.bank.example/x.js", true},
		{"https://mail.example", "https://mail.example/a", false}, // read: readable
		{"", "", false},
		{"null", "about:blank", false},
		{"https://shop.example", "https://shop.example/api", false},
	} {
		if got := blockedFrom(p, tc.origin, tc.url); got != tc.want {
			t.Errorf("blockedFrom(%q, %q) = %v", tc.origin, tc.url, got)
		}
	}
	if blockedFrom(nil, "https://www.bank.example", "") {
		t.Error("no policy leaves nothing out")
	}
}

func TestRequestLine(t *testing.T) {
	for _, tc := range []struct {
		r    protocol.NetRequest
		want string
	}{
		{protocol.NetRequest{ID: 14, Method: "GET", Status: 200, Type: "fetch", Bytes: 1234, MS: 35, URL: "http://a.example/api"}, "#14 GET 200 fetch 1.2 kB 35 ms http://a.example/api"},
		{protocol.NetRequest{ID: 2, Method: "POST", Failed: "net::ERR_FAILED", Type: "xhr", URL: "http://a.example/x"}, "#2 POST failed (net::ERR_FAILED) xhr 0 B 0 ms http://a.example/x"},
		{protocol.NetRequest{ID: 3, Method: "GET", Pending: true, Type: "document", Bytes: 3_400_000, URL: "http://a.example/"}, "#3 GET pending document 3.4 MB 0 ms http://a.example/"},
	} {
		if got := requestLine(tc.r); got != tc.want {
			t.Errorf("requestLine = %q, want %q", got, tc.want)
		}
	}
}

// drawRefs outlines each box and labels it with the ref ("@e7"), scaled
// to the image's pixels per CSS px.
func TestDrawRefs(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 400, 300))
	draw.Draw(src, src.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	refs := []protocol.DrawnRef{{Ref: "@e7", X: 50, Y: 40, Width: 60, Height: 30}, {Ref: "@e123", X: 0, Y: 0, Width: 40, Height: 20}}
	for _, scale := range []float64{1, 2} {
		img := image.NewRGBA(image.Rect(0, 0, int(200*scale), int(150*scale)))
		draw.Draw(img, img.Bounds(), src, image.Point{}, draw.Src)
		out := drawRefs(img, refs, scale)
		at := func(x, y int) color.RGBA { return out.RGBAAt(int(float64(x)*scale), int(float64(y)*scale)) }
		if c := at(50, 55); c != labelColor {
			t.Errorf("scale %v: the left edge of @e7's box is %v", scale, c)
		}
		if c := at(80, 55); c != (color.RGBA{255, 255, 255, 255}) {
			t.Errorf("scale %v: the inside of the box is painted: %v", scale, c)
		}
		// @e7's label sits above its box; @e123's, with no room above, inside.
		if c := at(51, 35); c != labelColor && c != (color.RGBA{255, 255, 255, 255}) {
			t.Errorf("scale %v: label pixel %v", scale, c)
		}
		white := 0
		for y := 0; y < int(18*scale); y++ {
			for x := 0; x < int(50*scale); x++ {
				if out.RGBAAt(x, y) == (color.RGBA{255, 255, 255, 255}) {
					white++
				}
			}
		}
		if white == 0 {
			t.Errorf("scale %v: @e123's label has no white glyph dots", scale)
		}
		if src.RGBAAt(50, 55) != (color.RGBA{255, 255, 255, 255}) {
			t.Error("drawRefs changed its source")
		}
	}
}
