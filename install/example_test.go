package install_test

import (
	"fmt"

	"github.com/grip-dev/grip/install"
)

func ExampleLocate() {
	loc, _ := install.Locate("linux", "/home/ada", nil, "brave", install.User)
	fmt.Println(loc.File)
	loc, _ = install.Locate("darwin", "/Users/ada", nil, "brave", install.User)
	fmt.Println(loc.File)
	loc, _ = install.Locate("windows", `C:\Users\ada`, nil, "brave", install.User)
	fmt.Println(loc.File)
	fmt.Println(loc.Registry())
	// Output:
	// /home/ada/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.grip.host.json
	// /Users/ada/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.grip.host.json
	// C:\Users\ada\AppData\Local\grip\NativeMessagingHosts\brave\dev.grip.host.json
	// HKCU\Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\dev.grip.host
}
