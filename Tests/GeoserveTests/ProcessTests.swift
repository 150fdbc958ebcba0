import Foundation
import Testing

@Suite("the service as a process", .serialized)
struct ProcessTests {
    @Test("serve starts on the demo campus, answers, and exits cleanly on SIGTERM and on SIGINT")
    func gracefulStop() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try testDatabase(in: folder, named: "var/g.sqlite")
        for signal in [SIGTERM, SIGINT] {
            let server = try await LiveServer(database: db, demoData: repositoryRoot.appendingPathComponent("data").path)
            let (status, body) = try await server.get("/readyz")
            #expect(status == 200)
            #expect(String(decoding: body, as: UTF8.self).contains(#""layers":3"#))
            #expect(try await server.stop(signal: signal) == 0)
        }
    }

    @Test("a bad environment value stops serve with a clear message and a non-zero exit")
    func badEnvironment() throws {
        let p = Process()
        p.executableURL = LiveServer.executable
        p.arguments = ["serve", "--demo-data", "none"]
        p.environment = ["GEOSERVE_PORT": "eighty"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus != 0)
        #expect(text.contains("GEOSERVE_PORT=eighty is not a whole number"))
    }
}
