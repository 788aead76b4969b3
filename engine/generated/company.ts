/* Generated from schemas/entities/company.json by `npm run gen`. Do not edit. */

export interface Company {
  /**
   * Company name
   */
  company_name: string;
  /**
   * E-mail
   */
  email?: string;
  /**
   * Phone numbers
   *
   * @maxItems 1000
   */
  phone_number?: string[];
  /**
   * GS1 company prefix.
   */
  prefix?: string;
  /**
   * Parent company
   */
  parent_company_id?: string | number | {};
  /**
   * Address
   */
  address?: {
    /**
     * Display name
     */
    display_name?: string;
    /**
     * Street address
     */
    address?: string;
    /**
     * Map marker of the place.
     */
    location?: {
      /**
       * Latitude
       */
      lat?: number;
      /**
       * Longitude
       */
      lng?: number;
    };
    /**
     * City
     */
    city?: string;
    /**
     * Post code
     */
    post_code?: string;
    /**
     * State or province
     */
    state_province?: string;
    /**
     * Country
     */
    country?: string;
    /**
     * ISO 3166-1 alpha-2 code, e.g. AR.
     */
    country_code?: string;
  };
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * Extensions
   */
  extensions?: {
    /**
     * Assessment
     */
    assessment?: {
      /**
       * Name
       */
      name?: string;
      /**
       * Audit type
       */
      type?: ('saq' | 'desk_review' | 'remote_audit' | 'on_site_audit' | 'follow_up_audit') & string;
      /**
       * Issue date
       */
      emission_date?: string;
      /**
       * Status
       */
      status?: ('new' | 'assigned' | 'submitted' | 'under_review' | 'published' | 'locked') & string;
      /**
       * Description
       */
      description?: string;
      /**
       * Reports
       *
       * @maxItems 1000
       */
      reports?: {
        id?: string;
        name?: string;
        size?: number;
        contentType?: string;
      }[];
      /**
       * BV report number
       */
      bv_report_no?: string;
      /**
       * Audited company player ID
       */
      audited_company_player_id?: string;
      /**
       * Qualification validation
       */
      qualification_validation?: (
        'qualified' | 'non_qualified' | 'compliance_plan' | 'assessment_ongoing' | 'saq_needed' | 'on_site_audit_needed'
      ) &
        string;
      /**
       * Monitoring needed by user
       */
      monitoring_needed_user?: string;
    };
    /**
     * Audit identification
     */
    companyAudit?: {
      /**
       * BV ID
       */
      bvId?: string;
    };
    /**
     * Certifications
     */
    companyCertification?: {
      /**
       * Certification 1
       */
      certification1?: string;
      /**
       * Certification 2
       */
      certification2?: string;
      /**
       * Certification 3
       */
      certification3?: string;
    };
    /**
     * ESG indices
     */
    companyEsg?: {
      /**
       * Climate Change (ESG-CC)
       */
      'ESG-CC'?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Business Ethics (ESG-BE)
       */
      'ESG-BE'?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Maturity index
       */
      maturity_index?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Business ethics
       */
      business_ethics?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Health and safety
       */
      health_and_safety?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Social
       */
      social?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Responsible sourcing
       */
      responsible_sourcing?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Data verification
       */
      data_verification?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Recycling
       */
      recycling?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Environment
       */
      environment?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
      /**
       * Climate change
       */
      climate_change?: {
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
        /**
         * Common best practices
         */
        best_practices_common?: number;
      };
    };
    /**
     * Greenhouse gases
     */
    companyGhg?: {
      /**
       * Water management
       */
      water_management?: number;
      /**
       * Energy management
       */
      energy_management?: number;
      /**
       * Scope 1 and 2 emissions
       */
      scope1and2?: number;
      /**
       * Scope 3 emissions
       */
      scope3?: number;
      /**
       * GHG reductions
       */
      ghg_reductions?: number;
      /**
       * Recycled materials
       */
      recycled_materials?: number;
      /**
       * Recyclability target
       */
      recyclability_target?: number;
    };
    /**
     * Company information
     */
    companyInfo?: {
      /**
       * ERP ID
       */
      erp_id?: string;
      /**
       * SENASA name
       */
      senasa_name?: string;
      /**
       * Argentine tax ID: 11 digits, as XX-XXXXXXXX-X or without hyphens. Cannot be changed after creation.
       */
      cuit: string;
      /**
       * Company type
       */
      company_type: ('producer' | 'distributor' | 'customer' | 'carrier' | 'internal') & string;
      /**
       * State
       */
      state: number & (1 | 3);
      /**
       * Mega client
       */
      mega_client?: boolean;
    };
    /**
     * Company products
     */
    companyProduct?: {
      /**
       * Materials the company makes.
       *
       * @maxItems 1000
       */
      products?: (string | number | {})[];
    };
    /**
     * ESG scores
     */
    dynamicCompanyEsg?: {
      /**
       * ESG scores
       *
       * @maxItems 1000
       */
      esg?: {
        /**
         * ID
         */
        id?: string;
        /**
         * Name
         */
        name?: string;
        /**
         * Score
         */
        score?: string;
        /**
         * Score unit
         */
        score_uom?: string;
      }[];
    };
    /**
     * Product carbon footprint (demo)
     */
    ghgDemo?: {
      /**
       * In kg CO2e per product unit.
       */
      emissions?: {
        /**
         * Own manufacturing
         */
        ownManufacturing?: number;
        /**
         * Production stage
         */
        productionStage?: number;
        /**
         * Upstream
         */
        upstream?: number;
        /**
         * Distribution stage
         */
        distributionStage?: number;
        /**
         * Comments
         */
        text?: string;
      };
      /**
       * Allocation method
       */
      allocationMethod?: {
        /**
         * Mass allocation
         */
        massAllocation?: ('yes' | 'no' | 'unknown') & string;
        /**
         * Energy content allocation
         */
        energyContentAllocation?: ('yes' | 'no' | 'unknown') & string;
        /**
         * Economic allocation
         */
        economicalAllocation?: ('yes' | 'no' | 'unknown') & string;
        /**
         * Other physical allocation
         */
        otherPhysicalBasedAllocation?: ('yes' | 'no' | 'unknown') & string;
        /**
         * By number of manufactured units
         */
        accordingToNumberOfManufacturedUnits?: ('yes' | 'no' | 'unknown') & string;
        /**
         * Time allocation
         */
        timeAllocation?: ('yes' | 'no' | 'unknown') & string;
      };
      /**
       * Process coverage
       */
      processCoverage?: {
        /**
         * Material acquisition and pre-processing stage
         */
        materialAquisitionPreProcessingStage?: ('covered' | 'notCovered' | 'notApplicable' | 'unknown') & string;
        /**
         * Manufacturing / production stage
         */
        manufacturingProductionStage?: ('covered' | 'notCovered' | 'notApplicable' | 'unknown') & string;
        /**
         * Distribution stage
         */
        distributionStage?: ('covered' | 'notCovered' | 'notApplicable' | 'unknown') & string;
        /**
         * Production waste
         */
        productionWaste?: ('covered' | 'notCovered' | 'notApplicable' | 'unknown') & string;
        /**
         * Characterization method
         */
        characterizationMethod?: ('covered' | 'notCovered' | 'notApplicable' | 'unknown') & string;
      };
    };
    /**
     * Fruit producer
     */
    producer?: {
      /**
       * Area
       */
      area?: number;
      /**
       * Collection area
       */
      collectionArea?: number;
      /**
       * Average daily production
       */
      averageDailyProduction?: number;
      /**
       * Previous crop volume
       */
      previousCropVolume?: number;
      /**
       * Previous crop price
       */
      previousCropPrice?: number;
    };
    /**
     * Certification upload
     */
    uploadCertification?: {
      /**
       * PDF files only, up to 10 MB each.
       *
       * @maxItems 1000
       */
      certifications?: {
        id?: string;
        name?: string;
        size?: number;
        contentType?: string;
      }[];
      /**
       * ESG scores by section
       *
       * @maxItems 1000
       */
      esg_scores?: {
        /**
         * Section
         */
        section: (
          | 'maturity_index'
          | 'business_ethics'
          | 'health_and_safety'
          | 'social'
          | 'responsible_sourcing'
          | 'data_verification'
          | 'recycling'
          | 'environment'
          | 'climate_change'
        ) &
          string;
        /**
         * Score
         */
        score?: number;
        /**
         * Section score
         */
        raw_score?: number;
        /**
         * Maximum section score
         */
        max_section_score?: number;
        /**
         * Total non-conformities
         */
        total_non_conform?: number;
        /**
         * Required practices not conforming
         */
        req_practices_non_conform?: number;
      }[];
    };
  };
  /**
   * ID
   */
  id?: string;
}
