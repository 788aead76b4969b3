/** A legal document of the terms screen (SPEC 2.6): English only. */
export interface LegalDocument {
  id: 'terms' | 'general' | 'privacy';
  titleKey: string;
  updated: string;
  sections: { heading: string; paragraphs: string[] }[];
}

export const DOCUMENTS: readonly LegalDocument[] = [
  {
    id: 'terms',
    titleKey: 'terms.termsAndConditions',
    updated: '2026-01-15',
    sections: [
      {
        heading: '1. Who these terms apply to',
        paragraphs: [
          'These Terms and Conditions govern access to and use of the traceability platform (the "Platform") by the staff of the companies that subscribe to it (the "Customer") and by the suppliers, distributors, customers and carriers the Customer invites (together, "Users").',
          'By signing in, each User confirms that they act on behalf of their organisation and that they have read these terms, the General Conditions and the Privacy Policy.',
        ],
      },
      {
        heading: '2. Accounts and access',
        paragraphs: [
          'Accounts are personal. Users keep their credentials confidential and tell their administrator at once if they suspect that an account has been used without permission.',
          'Each User sees only the features that the access granted by their administrator allows. The Customer is responsible for granting and removing access, including when a person leaves the organisation.',
        ],
      },
      {
        heading: '3. Acceptable use',
        paragraphs: [
          'Users record only accurate traceability information that they are entitled to share: product batches, container movements, receptions, deliveries and sustainability data. Users must not upload unlawful content, attempt to reach data of other organisations, or interfere with the operation or security of the Platform.',
          'Records declared to public authorities, such as the national agricultural health authority, are sent as entered by the Customer. The Customer remains responsible for the correctness of each declaration.',
        ],
      },
      {
        heading: '4. Availability and support',
        paragraphs: [
          'We aim to keep the Platform available at all times and plan maintenance outside business hours when we can. Support requests are handled through the Customer\'s designated administrators.',
        ],
      },
      {
        heading: '5. Changes to these terms',
        paragraphs: [
          'We may update these terms to reflect changes in the Platform or in the law. We give at least 30 days\' notice of any significant change, by e-mail to the Customer\'s administrators and by a notice in the Platform, before the change takes effect. Continued use after that date means acceptance of the updated terms.',
        ],
      },
    ],
  },
  {
    id: 'general',
    titleKey: 'terms.generalConditions',
    updated: '2026-01-15',
    sections: [
      {
        heading: '1. Scope',
        paragraphs: [
          'These General Conditions complete the subscription agreement between the provider and the Customer. Where they differ, the signed subscription agreement prevails.',
        ],
      },
      {
        heading: '2. Customer data',
        paragraphs: [
          'The Customer owns all data it enters into the Platform, including master data, traceability events and reports. The provider processes that data only to operate, secure and support the Platform and as instructed by the Customer.',
          'On termination the Customer may export its data as CSV files for 60 days, after which the data is deleted from production systems and, within a further 90 days, from backups.',
        ],
      },
      {
        heading: '3. Fees and term',
        paragraphs: [
          'Fees, the subscription period and the number of Users are set out in the order form. Either party may terminate for a material breach that is not remedied within 30 days of written notice.',
        ],
      },
      {
        heading: '4. Liability',
        paragraphs: [
          'Neither party is liable for indirect or consequential losses. Each party\'s total liability in any twelve-month period is limited to the fees paid by the Customer in that period, except for breaches of confidentiality and for amounts that cannot be limited by law.',
        ],
      },
      {
        heading: '5. Confidentiality and survival',
        paragraphs: [
          'Each party keeps the other\'s confidential information secret and uses it only to perform the agreement.',
          'The clauses on confidentiality, customer data, liability and governing law survive the end of the agreement for 3 years.',
        ],
      },
      {
        heading: '6. Changes',
        paragraphs: [
          'The provider may amend these General Conditions. Significant changes are announced with 30 days\' notice before they apply; if the Customer objects in writing within that period, the previous conditions continue to apply until the end of the current subscription term.',
        ],
      },
    ],
  },
  {
    id: 'privacy',
    titleKey: 'terms.privacyPolicy',
    updated: '2026-01-15',
    sections: [
      {
        heading: '1. What we collect',
        paragraphs: [
          'We process the personal data needed to provide the Platform: each User\'s name, business e-mail address, language and notification preferences, profile photo if one is added, sign-in times, and a log of the actions taken in the Platform.',
          'Traceability records may contain the names and contact details of people at partner companies, as entered by the Customer.',
        ],
      },
      {
        heading: '2. Why we use it',
        paragraphs: [
          'We use personal data to authenticate Users, to show each User the features their access allows, to send the notifications they chose, to keep an audit trail of traceability records, and to secure and improve the Platform. We do not sell personal data or use it for advertising.',
        ],
      },
      {
        heading: '3. Who we share it with',
        paragraphs: [
          'Data is shared only with the hosting and e-mail providers that run the Platform under contracts that protect it, with public authorities where the Customer declares records to them, and where the law requires.',
        ],
      },
      {
        heading: '4. How long we keep it',
        paragraphs: [
          'Account data is kept while the account is active and deleted within 90 days after it is closed. Audit logs of traceability records are kept for as long as the records they describe.',
        ],
      },
      {
        heading: '5. Your rights',
        paragraphs: [
          'Users may ask to access, correct, export or delete their personal data, or object to its use, by writing to their administrator or to the privacy contact of the provider. We answer every data request within 45 days of receiving it, and tell the requester if we need to confirm their identity first.',
        ],
      },
      {
        heading: '6. Changes to this policy',
        paragraphs: [
          'We announce significant changes to this policy at least 30 days before they take effect.',
        ],
      },
    ],
  },
];
