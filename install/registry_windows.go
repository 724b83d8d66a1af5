package install

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows/registry"
)

func registryRoot(root string) (registry.Key, error) {
	switch root {
	case "HKCU":
		return registry.CURRENT_USER, nil
	case "HKLM":
		return registry.LOCAL_MACHINE, nil
	}
	return 0, fmt.Errorf("%w: registry root %q", ErrBadOptions, root)
}

// setRegistryDefault creates root\key and sets its default value to value.
func setRegistryDefault(root, key, value string) error {
	r, err := registryRoot(root)
	if err != nil {
		return err
	}
	k, _, err := registry.CreateKey(r, key, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("install: create registry key %s\\%s: %w", root, key, err)
	}
	defer k.Close()
	if err := k.SetStringValue("", value); err != nil {
		return fmt.Errorf("install: set registry key %s\\%s: %w", root, key, err)
	}
	return nil
}

// registryDefault returns root\key's default value; ok is false when the key
// or value does not exist.
func registryDefault(root, key string) (value string, ok bool, err error) {
	r, err := registryRoot(root)
	if err != nil {
		return "", false, err
	}
	k, err := registry.OpenKey(r, key, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer k.Close()
	v, _, err := k.GetStringValue("")
	if errors.Is(err, registry.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return v, true, nil
}

// deleteRegistryKey removes root\key (it has no subkeys).
func deleteRegistryKey(root, key string) error {
	r, err := registryRoot(root)
	if err != nil {
		return err
	}
	if err := registry.DeleteKey(r, key); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf("install: delete registry key %s\\%s: %w", root, key, err)
	}
	return nil
}
