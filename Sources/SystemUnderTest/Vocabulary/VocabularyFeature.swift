import Foundation

/// The vocabulary feature's two screens, as the app holds them.
@MainActor
public final class VocabularyScreens {
    /// The list of sets, with the buttons that add sets and words.
    public let library: VocabularyViewModel
    public let quiz: QuizViewModel
    /// The settings screen's help link, or why it is not offered (``HelpLink``).
    public let helpLink: (_ site: String) -> Result<URL, VocabularyError>

    init(library: VocabularyViewModel, quiz: QuizViewModel, helpLink: @escaping (String) -> Result<URL, VocabularyError>) {
        self.library = library
        self.quiz = quiz
        self.helpLink = helpLink
    }

    /// What the feature shows the user right now: an error on either screen beats the
    /// quiz's notice. (The launch's own notice is the app's to show.)
    public var surfaced: (severity: Severity, message: String?) {
        if library.state == .error { return (.error, library.errorMessage) }
        return quiz.surfaced
    }
}

/// Builds the vocabulary screens for the app's variant. Seed 000's old code differs
/// from the hardened one in the launch (``LegacyStore``) and in quiz generation
/// (``LegacyQuizSession``); its data layer was not described, so both variants share it.
@MainActor
enum VocabularyFeature {
    static func screens(app: ChaosApp) -> VocabularyScreens {
        let dataSource: any VocabularyDataSourceProtocol = app.store.map(VocabularyDataSource.init(store:))
            ?? UnavailableVocabularyDataSource()
        let repository = VocabularyRepository(dataSource: dataSource)
        let generator: any QuizGenerating = switch app.variant {
        case .hardened: QuizGenerator()
        case .legacy: LegacyQuizSession()
        }
        let helpLink: (String) -> Result<URL, VocabularyError> = switch app.variant {
        case .hardened: { site in
            do throws(VocabularyError) { return .success(try HelpLink.url(site: site)) } catch { return .failure(error) }
        }
        case .legacy: { site in .success(LegacyHelpLink.url(site: site)) }
        }
        return VocabularyScreens(library: VocabularyViewModel(repository: repository, launchHealth: app.health),
                                 quiz: QuizViewModel(repository: repository, generator: generator), helpLink: helpLink)
    }
}
