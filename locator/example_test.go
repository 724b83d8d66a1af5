package locator_test

import (
	"fmt"

	"github.com/grip-dev/grip/locator"
)

func ExampleParse() {
	for _, s := range []string{"@e5", "iframe#pay>>>input[name=card]", "@e1 >>> #inner", "e5"} {
		l, err := locator.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("ref=%d chain=%q string=%s\n", l.Ref, l.Chain, l)
	}
	// Output:
	// ref=5 chain=[] string=@e5
	// ref=0 chain=["iframe#pay" "input[name=card]"] string=iframe#pay >>> input[name=card]
	// invalid_locator: "@e1 >>> #inner" starts with a ref: a chain cannot hold a ref, a ref already names one node in one frame (use the ref alone, or a chain of CSS selectors)
	// invalid_locator: locator "e5" looks like a ref without its @ (did you mean @e5?)
}
