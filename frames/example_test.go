package frames_test

import (
	"fmt"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

func ExampleRender() {
	email := "a@b.c"
	answered, skipped := frames.Merge([]frames.FrameResult{
		{FrameID: 7, URL: "https://pay.example.net/card", Elements: []protocol.Element{
			{Ref: "@e7", Role: "textbox", Name: "Card number"},
			{Ref: "@e8", Role: "button", Name: "Pay"},
		}},
		{FrameID: 0, URL: "https://shop.example/checkout", Elements: []protocol.Element{
			{Ref: "@e1", Role: "button", Name: "Accept cookies"},
			{Ref: "@e3", Role: "textbox", Name: "Email", Value: &email, States: []string{"required"}},
		}},
		{FrameID: 9, Err: "Frame with ID 9 was removed."},
	})
	tab := protocol.TabRef{ID: 412, Title: "Checkout — Shop", URL: "https://shop.example/checkout"}
	snap, err := frames.Render(tab, answered, skipped, frames.Options{Budget: 90})
	if err != nil {
		panic(err)
	}
	fmt.Print(snap.Text)
	snap, _ = frames.Render(tab, answered, skipped, frames.Options{Budget: 90, After: snap.Next})
	fmt.Print(snap.Text)
	// Output:
	// Tab 412 · 'Checkout — Shop' · https://shop.example/checkout
	// === Frame: 0 (Top: https://shop.example/checkout) ===
	// @e1: [button 'Accept cookies']
	// @e3: [textbox 'Email' value='a@b.c' required]
	// … 2 more elements omitted (grip snapshot --after @e3)
	// (1 frame did not answer)
	// Tab 412 · 'Checkout — Shop' · https://shop.example/checkout
	// === Frame: 7 (https://pay.example.net/card) ===
	// @e7: [textbox 'Card number']
	// @e8: [button 'Pay']
	// (1 frame did not answer)
}

func ExampleLine() {
	fmt.Println(frames.Line(protocol.Element{Ref: "@e4", Role: "checkbox", Name: "Don't\nforget", States: []string{"checked"}}))
	// Output: @e4: [checkbox 'Don\'t\nforget' checked]
}
