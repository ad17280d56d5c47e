import Logging
import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// Each app's one notification, shown and updated in place (`replaces_id`) without waiting for the
/// server. The server's id of a notification is learned from its answer to Notify; until then a
/// newer notice for the same app waits (only the newest) and goes out replacing the id once it is
/// known, and a close waits for the id too. So a slow or stopped server never gets two notices for
/// one app, and the loop never waits for it.
final class AppNotifications {
    private struct Slot {
        /// The server's id for the app's notification; 0 before the first answer.
        var id: UInt32 = 0
        var notifyInFlight = false
        var next: NotificationRequest?
        var closeWhenAnswered = false
    }

    private let notifier: Notifier
    private var slots: [AppID: Slot] = [:]

    init(notifier: Notifier) { self.notifier = notifier }

    func notify(_ app: AppID, _ request: NotificationRequest) throws {
        var slot = slots[app] ?? Slot()
        if slot.notifyInFlight {
            slot.next = request
            slot.closeWhenAnswered = false
            slots[app] = slot
            return
        }
        slot.notifyInFlight = true
        slots[app] = slot
        do {
            try notifier.show(request, replacing: slot.id) { [weak self] result in self?.answered(app, result) }
        } catch {
            slots[app]?.notifyInFlight = false
            throw error
        }
    }

    func close(_ app: AppID) throws {
        guard var slot = slots[app] else { return }
        if slot.notifyInFlight {
            slot.next = nil
            slot.closeWhenAnswered = true
            slots[app] = slot
            return
        }
        slots[app] = nil
        if slot.id != 0 { try notifier.close(slot.id) }
    }

    /// The app whose notification has the server's id `id`.
    func app(for id: UInt32) -> AppID? {
        slots.first { $0.value.id == id && id != 0 }?.key
    }

    /// The server closed notification `id` (dismissed, expired): a later notice starts a new one.
    func closed(_ id: UInt32) {
        guard let app = app(for: id) else { return }
        slots[app]?.id = 0
        if slots[app]?.notifyInFlight == false { slots[app] = nil }
    }

    private func answered(_ app: AppID, _ result: Result<UInt32, Error>) {
        guard var slot = slots[app] else { return }
        slot.notifyInFlight = false
        switch result {
        case .success(let id): slot.id = id
        case .failure(let error):
            Log.warning("notification for \(app.rawValue): \(error)")
            slot.id = 0
        }
        slots[app] = slot
        if let next = slot.next {
            slots[app]?.next = nil
            do { try notify(app, next) } catch { Log.warning("notification for \(app.rawValue): \(error)") }
        } else if slot.closeWhenAnswered {
            do { try close(app) } catch { Log.warning("closing the notification for \(app.rawValue): \(error)") }
        } else if slot.id == 0 {
            slots[app] = nil
        }
    }
}
