package api_test

import "testing"

// The desktop notification setting is the watcher's, served and changed
// over the socket.
func TestDesktopNotificationsOverTheSocket(t *testing.T) {
	s := serve(t)
	if on, err := s.client.DesktopNotifications(); !on || err != nil {
		t.Fatalf("by default: %v %v, want on", on, err)
	}
	if err := s.client.SetDesktopNotifications(false); err != nil {
		t.Fatal(err)
	}
	if on, _ := s.w.Service.DesktopNotifications(); on {
		t.Error("turned off over the socket, the watcher still shows them")
	}
	if on, err := s.client.DesktopNotifications(); on || err != nil {
		t.Errorf("after turning them off: %v %v", on, err)
	}
}
