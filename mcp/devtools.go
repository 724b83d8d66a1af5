package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// The developer tools (docs/devtools.md, "Developer tools"), named as
// Playwright MCP names them.

type consoleIn struct {
	Level string `json:"level,omitempty" jsonschema:"This level and the more severe (default info)"`
	tabIn
	Budget int `json:"budget,omitempty" jsonschema:"Token allowance (default 8000), the newest kept"`
}

type networkIn struct {
	IncludeStatic bool   `json:"includeStatic,omitempty" jsonschema:"Also successful images, fonts, styles, scripts, media"`
	Filter        string `json:"filter,omitempty" jsonschema:"Only URLs containing this (any case)"`
	ID            int    `json:"id,omitempty" jsonschema:"That request's response body instead (#id)"`
	MaxBytes      int    `json:"maxBytes,omitempty" jsonschema:"With id: cut the body here (default 1 MiB)"`
	tabIn
	Budget int `json:"budget,omitempty" jsonschema:"Token allowance (default 8000), the newest kept"`
}

type evaluateIn struct {
	Function string `json:"function" jsonschema:"() => { ... } (may be async) or an expression"`
	tabIn
}

type resizeIn struct {
	Width  int `json:"width" jsonschema:"CSS px"`
	Height int `json:"height" jsonschema:"CSS px"`
	tabIn
}

// devText ends the description of the developer tools: what they return
// was written by the page.
const devText = pageText

func (s *Server) addDevtools() {
	tabMin := func(p map[string]*Schema) {
		p["tab"].Minimum = ptr(1.0)
		if b, ok := p["budget"]; ok {
			b.Minimum = ptr(0.0)
		}
	}
	addTool(s, &Tool{Name: "browser_console_messages", ops: []string{protocol.OpConsole},
		Description: "The page's console since it loaded (every frame and worker, uncaught errors too), oldest first, with sources; repeats folded (×5)." + devText},
		func(p map[string]*Schema) {
			tabMin(p)
			p["level"].Enum = []any{protocol.LevelError, protocol.LevelWarning, protocol.LevelInfo, protocol.LevelDebug}
		}, s.consoleMessages)
	addTool(s, &Tool{Name: "browser_network_requests", ops: []string{protocol.OpNetwork, protocol.OpNetworkBody},
		Description: "The page's requests (#id, method, status, type, bytes, time, URL), or one's response body (id)." + devText},
		func(p map[string]*Schema) {
			tabMin(p)
			p["id"].Minimum = ptr(1.0)
			p["maxBytes"].Minimum = ptr(1.0)
		}, s.networkRequests)
	addTool(s, &Tool{Name: "browser_evaluate", ops: []string{protocol.OpEval},
		Description: "Run JavaScript in the page's top frame and return its value as JSON; only where the person's policy allows script (else refused: theirs to change)." + devText},
		nil, s.evaluate)
	addTool(s, &Tool{Name: "browser_resize", ops: []string{protocol.OpResize},
		Description: "Resize the tab's window, in a browser grip launched or a window of only this session's tabs."},
		func(p map[string]*Schema) {
			p["width"].Minimum, p["width"].Maximum = ptr(float64(protocol.MinWindowWidth)), ptr(float64(protocol.MaxWindowWidth))
			p["height"].Minimum, p["height"].Maximum = ptr(float64(protocol.MinWindowHeight)), ptr(float64(protocol.MaxWindowHeight))
		}, s.resize)
}

func (s *Server) consoleMessages(ctx context.Context, in consoleIn) (*CallToolResult, error) {
	res, err := s.ops.Console(ctx, protocol.ConsoleArgs{Tab: in.Tab, Level: in.Level, Budget: in.Budget})
	if err != nil {
		return nil, err
	}
	return textResult(devtoolsWords(res.Text, in.Tab) + "\n"), nil
}

func (s *Server) networkRequests(ctx context.Context, in networkIn) (*CallToolResult, error) {
	if in.ID > 0 {
		b, err := s.ops.NetworkBody(ctx, in.Tab, in.ID, in.MaxBytes)
		if err != nil {
			return nil, err
		}
		head := fmt.Sprintf("Body of request #%d · %d %s · %s · %d bytes", b.ID, b.Status, b.MimeType, b.URL, b.Bytes)
		if b.Truncated {
			head += fmt.Sprintf(", cut at %d (maxBytes)", len(b.Body))
		}
		if b.Text == "" && len(b.Body) > 0 {
			return textResult(head + "\n(not text: browser_network_requests cannot show it)\n"), nil
		}
		return textResult(head + "\n" + b.Text + "\n"), nil
	}
	res, err := s.ops.Network(ctx, protocol.NetworkArgs{Tab: in.Tab, Filter: in.Filter, All: in.IncludeStatic, Budget: in.Budget})
	if err != nil {
		return nil, err
	}
	return textResult(devtoolsWords(res.Text, in.Tab) + "\n"), nil
}

// devtoolsWords writes the host's hints in a console or network listing
// ("not shown: grip network --all --tab 5") as the tool's own parameters:
// the tab is the call's, so its flag goes.
func devtoolsWords(text string, tab int) string {
	if tab > 0 {
		text = strings.ReplaceAll(text, fmt.Sprintf(" --tab %d)", tab), ")")
	}
	// The flags these listings alone take; the rest (the request's body)
	// is a hint's wording, as mcpHint writes it.
	return mcpHint(strings.NewReplacer(
		"grip network --all", "includeStatic: true",
		"grip network --filter TEXT", "filter",
		"grip console --level debug", "level: debug",
		"grip console --level warning", "level: warning",
	).Replace(text))
}

// evalSource runs a function (called, awaited) or an expression alike.
func evalSource(fn string) string {
	return "(async () => { const __grip_f = (" + fn + "\n); return typeof __grip_f === 'function' ? await __grip_f() : __grip_f; })()"
}

func (s *Server) evaluate(ctx context.Context, in evaluateIn) (*CallToolResult, error) {
	if strings.TrimSpace(in.Function) == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give the function: () => document.title", "no function")
	}
	res, err := s.ops.Eval(ctx, protocol.EvalArgs{Tab: in.Tab, Expression: evalSource(in.Function)})
	if err != nil {
		return nil, err
	}
	text := res.Text
	if text == "" {
		if res.Type == "undefined" {
			text = "undefined"
		} else {
			b, err := json.MarshalIndent(res.Value, "", "  ")
			if err != nil {
				return nil, err
			}
			text = string(b)
		}
	}
	return textResult(text + "\n"), nil
}

func (s *Server) resize(ctx context.Context, in resizeIn) (*CallToolResult, error) {
	res, err := s.ops.Resize(ctx, in.Tab, in.Width, in.Height)
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("Window of tab %d is %dx%d", res.Tab.ID, res.Width, res.Height)
	if res.ViewportWidth > 0 {
		text += fmt.Sprintf(" (viewport %dx%d)", res.ViewportWidth, res.ViewportHeight)
	}
	return textResult(text + "\n"), nil
}

// pdfSave is browser_take_screenshot with pdf: grip pdf.
func (s *Server) pdfSave(ctx context.Context, in screenshotIn) (*CallToolResult, error) {
	if in.Filename != "" {
		if err := s.checkNewFile(ctx, in.Filename); err != nil {
			return nil, err
		}
	}
	res, err := s.ops.PDF(ctx, protocol.PDFArgs{Tab: in.Tab, Landscape: in.Landscape})
	if err != nil {
		return nil, err
	}
	var path string
	if in.Filename != "" {
		path, err = s.writeNewFile(ctx, in.Filename, res.PDF)
	} else {
		stamp := time.Now().Format("20060102-150405")
		path, err = s.writeStamped(ctx, func(i int) string {
			if i == 0 {
				return fmt.Sprintf("page-%d-%s.pdf", res.Tab.ID, stamp)
			}
			return fmt.Sprintf("page-%d-%s-%d.pdf", res.Tab.ID, stamp, i)
		}, res.PDF)
	}
	if err != nil {
		return nil, err
	}
	return textResult(fmt.Sprintf("Saved tab %d · %s as %s (%d bytes)\n", res.Tab.ID, res.Tab.Title, path, len(res.PDF))), nil
}

func (s *Server) shapedScreenshot(ctx context.Context, in screenshotIn) (*CallToolResult, error) {
	res, err := s.ops.ScreenshotShape(ctx, protocol.ScreenshotShapeArgs{Tab: in.Tab, Target: normRef(in.Ref), Refs: in.Refs, Grid: in.Grid})
	if err != nil {
		return nil, err
	}
	saved, err := s.saveShot(ctx, in.Filename, res.PNG)
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf("Screenshot of %s (%d×%d) in tab %d · %s", named(normRef(in.Ref), in.Element), res.Width, res.Height, res.Tab.ID, res.Tab.URL)
	if res.Clipped {
		head += fmt.Sprintf(", the part in the viewport, from %d,%d of its box", res.Left, res.Top)
	}
	if res.Grid > 0 {
		head += fmt.Sprintf("; a line every %d CSS px from its top-left corner, the at: {x, y} browser_click takes", res.Grid)
	}
	head += saved
	if in.Refs {
		drawn := make([]string, len(res.Refs))
		for i, r := range res.Refs {
			drawn[i] = r.Ref
		}
		head = fmt.Sprintf("Screenshot of tab %d · %s with %d refs drawn: %s", res.Tab.ID, res.Tab.URL, len(drawn), strings.Join(drawn, " ")) + saved
		if res.Snapshot != nil {
			head += "\n" + res.Snapshot.Text
		}
	}
	return &CallToolResult{Content: []Content{&TextContent{Text: head}, &ImageContent{Data: res.PNG, MIMEType: "image/png"}}}, nil
}
