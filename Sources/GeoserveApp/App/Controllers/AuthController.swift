import Foundation
import Hummingbird
import ReportVerification
import Storage

/// Login, logout and "who am I".
struct AuthController {
    let accounts: any AccountStore
    let credentials: Credentials
    let throttle: LoginThrottle
    let addresses: ClientAddress

    struct LoginRequest: StrictRequestBody {
        static let members: Set<String> = ["email", "password"]
        let email: String
        let password: String
    }

    struct AccountView: ResponseEncodable, Codable {
        let id: String
        let email: String
        let role: Role
        let disabled: Bool

        init(_ a: StoredAccount) {
            id = a.id
            email = a.email
            role = a.role
            disabled = a.disabled
        }
    }

    struct LoginResponse: ResponseEncodable {
        let token: String
        let expiresAt: Date
        let account: AccountView
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("auth/login") { request, context in try await login(request, context) }
        group.post("auth/logout") { request, context in try await logout(request, context) }
        group.get("me") { _, context in
            guard let account = context.account else { throw APIError.unauthorized("this needs a bearer token") }
            return AccountView(account)
        }
    }

    func login(_ request: Request, _ context: AppRequestContext) async throws -> LoginResponse {
        let (token, expires, account) = try await signIn(request, context)
        return LoginResponse(token: token, expiresAt: expires, account: AccountView(account))
    }

    /// Checks the credentials of a login body (throttled) and stores a new token for the account.
    func signIn(_ request: Request, _ context: AppRequestContext) async throws -> (token: String, expires: Date, account: StoredAccount) {
        let body = try await request.decodeStrict(as: LoginRequest.self, context: context)
        let email = body.email.trimmingCharacters(in: .whitespaces)
        let address = addresses.address(of: request, peer: context.remoteAddress)
        try await throttle.check(email: email, address: address, now: Date())
        let account = try await accounts.account(email: email)
        // Verify against a decoy when the account is unknown, so timing does not reveal which
        // emails have accounts; the message is the same in every failing case.
        let matches = try await credentials.verify(password: body.password, hash: account?.passwordHash ?? Credentials.decoyHash)
        guard let account, matches, !account.disabled else {
            try await throttle.failed(email: email, address: address, now: Date())
            throw APIError.unauthorized("email or password is wrong, or the account is disabled")
        }
        try await throttle.succeeded(email: email, address: address, now: Date())
        let token = Credentials.newToken()
        let expires = Date().addingTimeInterval(credentials.tokenLifetime)
        try await accounts.storeToken(hash: Credentials.tokenHash(token), accountID: account.id, expiresAt: expires)
        return (token, expires, account)
    }

    func logout(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard context.account != nil, let header = request.headers[.authorization] else {
            throw APIError.unauthorized("this needs a bearer token")
        }
        let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        try await accounts.revokeToken(hash: Credentials.tokenHash(token))
        return Response(status: .noContent)
    }
}
