import CALSA
import Clocks
import Glibc

/// The only code that calls libasound: every call goes through here, negative returns become
/// `ALSAError` with `snd_strerror`'s text, and interrupted calls are retried.
enum LibASound {
    typealias PCMHandle = OpaquePointer
    typealias StatusHandle = OpaquePointer

    static func error(_ code: Int32, _ operation: String, _ device: String) -> ALSAError {
        ALSAError(code: code, operation: operation, device: device, reason: String(cString: snd_strerror(code)))
    }

    @inline(__always)
    static func check(_ code: Int32, _ operation: String, _ device: String) throws(ALSAError) {
        if code < 0 { throw error(code, operation, device) }
    }

    // MARK: Open and close

    static func open(name: String, direction: PCMDirection, nonBlocking: Bool) throws(ALSAError) -> PCMHandle {
        var handle: OpaquePointer?
        let stream = direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        var code: Int32
        repeat {
            code = snd_pcm_open(&handle, name, stream, nonBlocking ? SND_PCM_NONBLOCK : 0)
        } while code == -EINTR
        try check(code, "open for \(direction.rawValue)", name)
        guard let handle else { throw error(-ENODEV, "open for \(direction.rawValue)", name) }
        return handle
    }

    /// Switches an opened PCM between blocking and non-blocking transfers.
    static func setBlocking(_ pcm: PCMHandle, _ blocking: Bool, device: String) throws(ALSAError) {
        try check(snd_pcm_nonblock(pcm, blocking ? 0 : 1), blocking ? "switch to blocking mode" : "switch to non-blocking mode", device)
    }

    static func close(_ pcm: PCMHandle) {
        _ = snd_pcm_close(pcm)
    }

    // MARK: Parameters

    static func configureHardware(
        _ pcm: PCMHandle, _ request: HardwareParameters, device: String
    ) throws(ALSAError) -> NegotiatedParameters {
        var params: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&params), "allocate hardware parameters", device)
        guard let params else { throw error(-ENOMEM, "allocate hardware parameters", device) }
        defer { snd_pcm_hw_params_free(params) }
        try check(snd_pcm_hw_params_any(pcm, params), "read the hardware configuration space", device)
        try check(snd_pcm_hw_params_set_rate_resample(pcm, params, request.allowsResampling ? 1 : 0),
                  "set software resampling", device)
        try check(snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED),
                  "set interleaved read/write access", device)
        try check(snd_pcm_hw_params_set_format(pcm, params, format(request.format)),
                  "set the sample format \(request.format.rawValue)", device)
        try check(snd_pcm_hw_params_set_channels(pcm, params, UInt32(request.channels)),
                  "set \(request.channels) channel(s)", device)
        var rate = UInt32(request.rate)
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &direction),
                  "set the sample rate near \(request.rate) Hz", device)
        if let periodFrames = request.periodFrames {
            var period = snd_pcm_uframes_t(periodFrames)
            direction = 0
            try check(snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &direction),
                      "set the period near \(periodFrames) frames", device)
        }
        if let bufferFrames = request.bufferFrames {
            var buffer = snd_pcm_uframes_t(bufferFrames)
            try check(snd_pcm_hw_params_set_buffer_size_near(pcm, params, &buffer),
                      "set the buffer near \(bufferFrames) frames", device)
        }
        try check(snd_pcm_hw_params(pcm, params), "install the hardware parameters", device)

        var period: snd_pcm_uframes_t = 0
        var buffer: snd_pcm_uframes_t = 0
        direction = 0
        try check(snd_pcm_hw_params_get_period_size(params, &period, &direction), "read the period size", device)
        try check(snd_pcm_hw_params_get_buffer_size(params, &buffer), "read the buffer size", device)
        direction = 0
        try check(snd_pcm_hw_params_get_rate(params, &rate, &direction), "read the sample rate", device)
        return NegotiatedParameters(
            rate: Int(rate), channels: request.channels, format: request.format,
            periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    static func configureSoftware(
        _ pcm: PCMHandle, _ request: SoftwareParameters, negotiated: NegotiatedParameters, device: String
    ) throws(ALSAError) {
        var params: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&params), "allocate software parameters", device)
        guard let params else { throw error(-ENOMEM, "allocate software parameters", device) }
        defer { snd_pcm_sw_params_free(params) }
        try check(snd_pcm_sw_params_current(pcm, params), "read the software parameters", device)
        try check(snd_pcm_sw_params_set_avail_min(
            pcm, params, snd_pcm_uframes_t(request.availableMinimum ?? negotiated.periodFrames)),
                  "set the wake-up threshold", device)
        if let start = request.startThreshold {
            try check(snd_pcm_sw_params_set_start_threshold(pcm, params, snd_pcm_uframes_t(start)),
                      "set the start threshold", device)
        }
        try check(snd_pcm_sw_params_set_tstamp_mode(pcm, params, SND_PCM_TSTAMP_ENABLE),
                  "enable timestamps", device)
        try check(snd_pcm_sw_params_set_tstamp_type(pcm, params, SND_PCM_TSTAMP_TYPE_MONOTONIC),
                  "use monotonic timestamps", device)
        try check(snd_pcm_sw_params(pcm, params), "install the software parameters", device)
    }

    static func probe(_ pcm: PCMHandle, direction: PCMDirection, device: String) throws(ALSAError) -> DeviceCapabilities {
        var params: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&params), "allocate hardware parameters", device)
        guard let params else { throw error(-ENOMEM, "allocate hardware parameters", device) }
        defer { snd_pcm_hw_params_free(params) }
        try check(snd_pcm_hw_params_any(pcm, params), "read the hardware configuration space", device)
        var minimumRate: UInt32 = 0
        var maximumRate: UInt32 = 0
        var minimumChannels: UInt32 = 0
        var maximumChannels: UInt32 = 0
        var direction32: Int32 = 0
        try check(snd_pcm_hw_params_get_rate_min(params, &minimumRate, &direction32), "read the minimum rate", device)
        try check(snd_pcm_hw_params_get_rate_max(params, &maximumRate, &direction32), "read the maximum rate", device)
        try check(snd_pcm_hw_params_get_channels_min(params, &minimumChannels), "read the minimum channels", device)
        try check(snd_pcm_hw_params_get_channels_max(params, &maximumChannels), "read the maximum channels", device)
        let formats = SampleFormat.allCases.filter { snd_pcm_hw_params_test_format(pcm, params, format($0)) == 0 }
        return DeviceCapabilities(
            direction: direction, minimumRate: Int(minimumRate), maximumRate: Int(maximumRate),
            minimumChannels: Int(minimumChannels), maximumChannels: Int(maximumChannels), formats: formats)
    }

    private static func format(_ format: SampleFormat) -> snd_pcm_format_t {
        switch format {
        case .s16LE: SND_PCM_FORMAT_S16_LE
        case .s32LE: SND_PCM_FORMAT_S32_LE
        case .floatLE: SND_PCM_FORMAT_FLOAT_LE
        }
    }

    // MARK: Transfer

    /// `snd_pcm_readi`, retried on EINTR and waited on for EAGAIN. Returns frames read, or a
    /// negative code for the caller to recover (EPIPE, ESTRPIPE) or throw.
    static func readFrames(_ pcm: PCMHandle, _ buffer: UnsafeMutableRawPointer, _ frames: Int) -> Int {
        retryingTransfer(pcm) { snd_pcm_readi(pcm, buffer, snd_pcm_uframes_t(frames)) }
    }

    /// `snd_pcm_writei`, retried like `readFrames`.
    static func writeFrames(_ pcm: PCMHandle, _ buffer: UnsafeRawPointer, _ frames: Int) -> Int {
        retryingTransfer(pcm) { snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(frames)) }
    }

    /// Repeats `transfer` while it is interrupted (EINTR) or the device is not ready (EAGAIN,
    /// then waits for it); a failing wait (device gone) ends the retry with its code.
    private static func retryingTransfer(_ pcm: PCMHandle, _ transfer: () -> Int) -> Int {
        while true {
            let result = transfer()
            if result == -Int(EINTR) { continue }
            if result == -Int(EAGAIN) {
                let waited = snd_pcm_wait(pcm, 1_000)
                if waited < 0, waited != -EINTR { return Int(waited) }
                continue
            }
            return result
        }
    }

    static let brokenPipe = -Int(EPIPE)
    static let suspendedPipe = -Int(ESTRPIPE)

    static func recover(_ pcm: PCMHandle, code: Int, device: String) throws(ALSAError) {
        try check(snd_pcm_recover(pcm, Int32(code), 1), "recover from \(code == brokenPipe ? "an xrun" : "a suspend")", device)
    }

    static func start(_ pcm: PCMHandle, device: String) throws(ALSAError) {
        try check(snd_pcm_start(pcm), "start the stream", device)
    }

    static func prepare(_ pcm: PCMHandle, device: String) throws(ALSAError) {
        try check(snd_pcm_prepare(pcm), "prepare the stream", device)
    }

    static func drop(_ pcm: PCMHandle, device: String) throws(ALSAError) {
        try check(snd_pcm_drop(pcm), "stop the stream", device)
    }

    static func drain(_ pcm: PCMHandle, device: String) throws(ALSAError) {
        var code: Int32
        repeat { code = snd_pcm_drain(pcm) } while code == -EINTR || code == -EAGAIN
        try check(code, "drain the stream", device)
    }

    static func throwing(_ code: Int, _ operation: String, _ device: String) -> ALSAError {
        error(Int32(truncatingIfNeeded: code), operation, device)
    }

    // MARK: Status

    static func allocateStatus(device: String) throws(ALSAError) -> StatusHandle {
        var status: OpaquePointer?
        try check(snd_pcm_status_malloc(&status), "allocate a status", device)
        guard let status else { throw error(-ENOMEM, "allocate a status", device) }
        return status
    }

    static func freeStatus(_ status: StatusHandle) {
        snd_pcm_status_free(status)
    }

    static func status(_ pcm: PCMHandle, into status: StatusHandle, device: String) throws(ALSAError) -> PCMStatus {
        try check(snd_pcm_status(pcm, status), "read the stream status", device)
        var now = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &now)
        var trigger = snd_htimestamp_t()
        snd_pcm_status_get_trigger_htstamp(status, &trigger)
        var timestamp = seconds(now)
        if timestamp == 0 {
            // Some plugins leave the status time empty; the call itself is "now".
            timestamp = RecordingClock.monotonic()
        }
        return PCMStatus(
            state: state(snd_pcm_status_get_state(status)),
            timestamp: timestamp,
            triggerTimestamp: seconds(trigger),
            availableFrames: Int(snd_pcm_status_get_avail(status)),
            delayFrames: Int(snd_pcm_status_get_delay(status)))
    }

    private static func seconds(_ time: timespec) -> Double {
        Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    private static func state(_ state: snd_pcm_state_t) -> PCMState {
        switch state {
        case SND_PCM_STATE_OPEN: .open
        case SND_PCM_STATE_SETUP: .setUp
        case SND_PCM_STATE_PREPARED: .prepared
        case SND_PCM_STATE_RUNNING: .running
        case SND_PCM_STATE_XRUN: .xrun
        case SND_PCM_STATE_DRAINING: .draining
        case SND_PCM_STATE_PAUSED: .paused
        case SND_PCM_STATE_SUSPENDED: .suspended
        case SND_PCM_STATE_DISCONNECTED: .disconnected
        default: .unknown
        }
    }

    // MARK: Device hints

    struct Hint {
        var name: String
        var description: String
        var directions: [PCMDirection]
    }

    /// Silences libasound's own error printing (while probing many devices) or restores it.
    static func setQuiet(_ quiet: Bool) {
        activetask_alsa_set_quiet(quiet ? 1 : 0)
    }

    static func pcmHints() throws(ALSAError) -> [Hint] {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        try check(snd_device_name_hint(-1, "pcm", &hints), "list device name hints", "*")
        guard let hints else { return [] }
        defer { _ = snd_device_name_free_hint(hints) }
        var result: [Hint] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            guard let name = takeString(snd_device_name_get_hint(hint, "NAME")) else { continue }
            let description = takeString(snd_device_name_get_hint(hint, "DESC")) ?? ""
            let ioid = takeString(snd_device_name_get_hint(hint, "IOID"))
            let directions: [PCMDirection] = switch ioid {
            case "Input": [.capture]
            case "Output": [.playback]
            default: [.capture, .playback]
            }
            result.append(Hint(
                name: name,
                description: description.split(separator: "\n").joined(separator: " / "),
                directions: directions))
        }
        return result
    }

    /// Copies and frees a string libasound allocated for us.
    private static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
