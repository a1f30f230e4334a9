package words

// DesktopWords says whether the watcher shows desktop notifications, for
// `notifio desktop` (the window shows it as a tick in Settings).
func DesktopWords(on bool) string {
	if on {
		return "Desktop notifications are on: Notifio shows one when new listings arrive, a price drops or a search stops working.\nTurn them off: notifio desktop off"
	}
	return "Desktop notifications are off: new listings still arrive in the window and by your email and push channels.\nTurn them on: notifio desktop on"
}
