import Foundation
import Hummingbird
import ReportVerification
import Storage

/// Account administration: list, create, change role, disable, revoke tokens. Admins only.
struct AccountsController {
    let accounts: any AccountStore
    let credentials: Credentials

    struct CreateRequest: StrictRequestBody {
        static let members: Set<String> = ["email", "role", "password"]
        let email: String
        let role: Role
        let password: String
    }

    struct UpdateRequest: StrictRequestBody {
        static let members: Set<String> = ["role", "disabled"]
        let role: Role?
        let disabled: Bool?
    }

    struct AccountList: ResponseEncodable {
        let accounts: [AuthController.AccountView]
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        let admin = group.group("accounts").add(middleware: RequirePermission(.manageAccounts))
        admin.get { _, _ in AccountList(accounts: try await accounts.accounts().map(AuthController.AccountView.init)) }
        admin.post { request, context in try await create(request, context) }
        admin.patch(":id") { request, context in try await update(request, context) }
        admin.post(":id/revoke-tokens") { _, context in
            let id = try context.parameters.require("id")
            guard try await accounts.account(id: id) != nil else { throw APIError.notFound("no account \(id)") }
            try await accounts.revokeTokens(accountID: id)
            return Response(status: .noContent)
        }
    }

    func create(_ request: Request, _ context: AppRequestContext) async throws -> EditedResponse<AuthController.AccountView> {
        let body = try await request.decodeStrict(as: CreateRequest.self, context: context)
        let email = body.email.trimmingCharacters(in: .whitespaces)
        guard EmailAddress.isPlausible(email) else { throw APIError.invalid("not an email address", field: "email") }
        if let problem = Credentials.checkPassword(body.password) { throw APIError.invalid(problem, field: "password") }
        let hash = await credentials.hash(password: body.password)
        do {
            let account = try await accounts.createAccount(email: email, role: body.role, passwordHash: hash)
            return EditedResponse(status: .created, response: AuthController.AccountView(account))
        } catch StorageError.conflict {
            throw APIError.conflict("an account with this email already exists")
        }
    }

    func update(_ request: Request, _ context: AppRequestContext) async throws -> AuthController.AccountView {
        let id = try context.parameters.require("id")
        let body = try await request.decodeStrict(as: UpdateRequest.self, context: context)
        if id == context.account?.id, body.disabled == true || (body.role != nil && body.role != .admin) {
            throw APIError.conflict("admins cannot disable or demote their own account")
        }
        do {
            return AuthController.AccountView(try await accounts.updateAccount(id: id, role: body.role, disabled: body.disabled))
        } catch StorageError.notFound {
            throw APIError.notFound("no account \(id)")
        }
    }
}
