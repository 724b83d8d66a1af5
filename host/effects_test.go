package host

import (
	"reflect"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// An opened tab is named once, in its opener's next reply, whether the
// extension's event comes before that reply or after it; a tab it opened
// that closes is named in the opener's next reply after that, once.
func TestOpenerBook(t *testing.T) {
	b := newOpenerBook()
	seen := []protocol.OpenedTab{{Tab: 20, URL: "http://a/", Title: "A"}}

	// The event first, then the action that saw it.
	b.tabOpened(20, 10, "http://a/")
	opened, closed := b.take(10, seen)
	if !reflect.DeepEqual(opened, seen) || len(closed) != 0 {
		t.Fatalf("take = %v %v, want %v and none closed", opened, closed, seen)
	}
	// The action first, then a late event: not named again.
	b.tabOpened(21, 10, "http://b/")
	opened, _ = b.take(10, []protocol.OpenedTab{{Tab: 21, URL: "http://b/", Title: "B"}})
	b.tabOpened(21, 10, "http://b/")
	if again, _ := b.take(10, nil); len(opened) != 1 || len(again) != 0 {
		t.Fatalf("late event named tab 21 again: %v then %v", opened, again)
	}
	// Opened later by the page (a timer): named by the next reply.
	b.tabOpened(22, 10, "http://c/")
	if opened, _ = b.take(10, nil); len(opened) != 1 || opened[0].Tab != 22 {
		t.Fatalf("take = %v, want tab 22", opened)
	}
	// A popup closes itself: its opener's next reply says so, once.
	b.tabRemoved(20)
	if _, closed = b.take(10, nil); !reflect.DeepEqual(closed, []int{20}) {
		t.Fatalf("closed = %v, want [20]", closed)
	}
	if _, closed = b.take(10, nil); len(closed) != 0 {
		t.Fatalf("closed named twice: %v", closed)
	}
	// Another tab's reply is not given them.
	b.tabOpened(30, 11, "http://d/")
	if opened, closed = b.take(10, nil); len(opened)+len(closed) != 0 {
		t.Fatalf("tab 10 was given tab 11's news: %v %v", opened, closed)
	}
	// Opened and closed before any reply: it is said closed.
	b.tabRemoved(30)
	opened, closed = b.take(11, nil)
	if len(opened) != 0 || !reflect.DeepEqual(closed, []int{30}) {
		t.Fatalf("take = %v %v, want only closed [30]", opened, closed)
	}
}
