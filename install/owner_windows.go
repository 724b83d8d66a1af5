package install

import "io/fs"

// ownedByAdmin is false on Windows, where there is no system install.
var ownedByAdmin = func(fs.FileInfo) bool { return false }
