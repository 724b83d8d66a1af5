//go:build !windows

package install

// The registry exists only on Windows; these stubs let a faked GOOS of
// "windows" fail clearly elsewhere.

func setRegistryDefault(root, key, value string) error { return ErrRegistryUnsupported }

func registryDefault(root, key string) (string, bool, error) {
	return "", false, ErrRegistryUnsupported
}

func deleteRegistryKey(root, key string) error { return ErrRegistryUnsupported }
