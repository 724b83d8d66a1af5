package refcache_test

import (
	"fmt"

	"github.com/grip-dev/grip/refcache"
)

func ExampleAllocator_Replace() {
	a := refcache.New()
	key := refcache.Key{DocumentID: "8F1C2D0E6B7A4C3D9E0F1A2B3C4D5E6F", FrameID: 0, LocalID: 42}
	refs, d := a.Replace(412, []refcache.Observed{{Key: key, Role: "button", Name: "Accept cookies"}})
	fmt.Println(refcache.FormatRef(refs[0]), d.Added)

	// The page re-rendered and renamed the button: same node, same ref.
	refs, d = a.Replace(412, []refcache.Observed{{Key: key, Role: "button", Name: "Accepted"}})
	fmt.Println(refcache.FormatRef(refs[0]), d.Added)

	// The tab navigated: the old document's refs go stale.
	a.InvalidateDocuments(map[string]bool{"another document": true})
	_, err := a.Resolve(refs[0])
	fmt.Println(err)
	// Output:
	// @e1 [1]
	// @e1 []
	// stale_ref: @e1 is stale: its element is no longer on the page (take a new snapshot with grip snapshot and use the ref it gives)
}

func ExampleParseRef() {
	n, err := refcache.ParseRef("@e12")
	fmt.Println(n, err)
	_, err = refcache.ParseRef("@e01")
	fmt.Println(err)
	// Output:
	// 12 <nil>
	// invalid_locator: malformed ref "@e01": no leading zeros (refs look like @e12, as grip snapshot prints them)
}
