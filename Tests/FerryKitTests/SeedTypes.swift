import Foundation

/// The GameStore app's product, as its developers would write it.
struct SeedProduct: Codable, Equatable {
    var name: String
    var price: Decimal?
    var photo: Data?
}

/// The BookStore app's book, with the chapter's exercise's price and ISBN.
struct SeedBook: Codable, Equatable {
    var title: String
    var author: String
    var description: String
    var pages: Int
    var readThisBook: Bool
    var price: Decimal?
    var isbn: String?
}
