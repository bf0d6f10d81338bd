import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 6,
  slug: 'medical-imaging-research-on-demand-gpus',
  title: 'Accelerating Medical Imaging Research with On-Demand GPUs',
  excerpt:
    '3D segmentation, cross-validation in parallel and whole-slide pathology on rented GPUs, and the de-identification and approvals that must come first.',
  author: 'Dr. Kavya Nair',
  date: 'September 3, 2026',
  category: 'Medical Research',
  tags: ['Medical Imaging', 'Healthcare AI', 'Data Protection', 'Deep Learning'],
  featured: false,
  content: `
Medical imaging is one of the areas where deep learning has moved fastest from papers to practice. Models now segment organs and tumours in CT and MRI scans, flag suspicious findings in chest X-rays and measure structures that radiologists once traced by hand. Behind almost every one of these models is a long series of experiments on GPUs, and for many hospital research groups and university labs, access to those GPUs is the bottleneck. This article looks at how on-demand GPUs can speed up medical imaging research, and at the responsibilities that come with handling health data.

## Why medical imaging needs serious GPUs

Medical images are large. A single CT scan can contain hundreds of slices of 512 by 512 pixels; an MRI study holds several sequences; a digital pathology slide can be tens of gigapixels. Models that work in three dimensions, such as 3D U-Nets for volumetric segmentation, need far more memory than their 2D counterparts, and training them on full-resolution patches quickly outgrows a 12GB or 16GB card.

In practice this means:

- **Memory decides what you can try.** 3D segmentation with reasonable patch sizes typically wants 24GB or more. Cards like the RTX 4090 (24GB) or the A100 (40GB or 80GB) let you use larger patches and batches, which often improves accuracy.
- **Cross-validation multiplies the work.** A five-fold cross-validation is five full training runs. Frameworks such as nnU-Net, which configure themselves for each dataset, make this standard practice, and the compute bill follows.
- **Pathology adds volume.** Whole-slide images are usually tiled into thousands of patches per slide, so the data pipeline matters as much as the GPU.

## Where renting helps a research group

Hospital research groups and academic labs rarely have a dedicated GPU cluster, and the institutional cluster may be shared with the whole university. On-demand GPUs help in three situations:

1. **Running cross-validation in parallel.** Five folds on five GPUs finish in the time of one.
2. **Trying a bigger model before buying hardware.** A week on an A100 answers whether a 3D model improves results enough to justify investment.
3. **Meeting deadlines.** Conference and grant deadlines do not move because the cluster queue is full.

Because rentals are paid from prepaid credits, a project can be given a fixed computing budget up front, which suits how research grants are managed. You book between 1 and 720 hours per rental, the cost moves into escrow when it starts, and any unused time is refunded by the second when you stop.

## Protecting patients comes first

Health data carries obligations that go well beyond most machine-learning work. Before any image leaves your institution, make sure the following are in place.

### Approval and agreements

Your study needs the approval of your institutional ethics committee, and your data-use agreements must allow processing on external infrastructure. In India, the Digital Personal Data Protection Act, 2023 applies to personal data, and health data deserves the strictest care. If you work with data from the United States or Europe, rules such as HIPAA or the GDPR may apply as well. When in doubt, ask your data-protection officer before you upload anything.

### De-identification

Use de-identified data wherever possible. For imaging this means more than removing the patient's name:

- **DICOM headers** contain names, identifiers, dates of birth, referring physicians and institution names. Use a well-tested de-identification tool and a documented profile rather than deleting fields by hand.
- **Burned-in text** on ultrasound images, secondary captures and scanned documents can contain identifiers in the pixels themselves. Check for it, and crop or mask it.
- **Faces in head scans** can be reconstructed from high-resolution MRI and CT volumes. Defacing tools remove facial features while keeping the brain intact.
- **Dates and rare conditions** can identify a patient in combination. Shift dates consistently and think about small subgroups.

### Handling data on a rented machine

- Upload only the data the experiment needs, over the encrypted SSH connection that comes with each rental.
- Keep data on the instance's own disk, and do not copy it to third-party services from there.
- When the experiment ends, delete the data and the checkpoints you do not need, then stop the rental.
- Choose providers whose listed security measures and certifications match what your agreements require. Providers declare their measures, such as access control, CCTV monitoring and secure disposal, and their certifications when they apply to join the platform.

Our article on [security and data protection in distributed computing](/blog/security-data-protection-distributed-computing) goes into these practices in more depth.

## A practical experiment plan

Suppose your group is building a liver-lesion segmentation model from 400 de-identified CT studies.

1. **Preprocess at home.** Convert studies to a compact format such as NIfTI, resample and normalise them on your institution's machines, and check de-identification before anything leaves.
2. **Pilot on one GPU.** Rent an RTX 4090 for a few hours, upload the preprocessed data, and measure time per epoch and memory use for your chosen patch size.
3. **Scale out.** If the pilot looks good, rent five GPUs and run the five folds of cross-validation in parallel. Book generously; stopping early refunds what you do not use.
4. **Try a bigger configuration.** If memory was the limit, rent an A100 80GB for one fold with larger patches and compare.
5. **Clean up.** Copy metrics, predictions and final weights home, delete the data from each instance and stop every rental.

## From research to the clinic

A model that performs well in a paper is still far from a clinical tool. Validation on external data from other hospitals, prospective studies and regulatory approval all come after. Regulators such as India's CDSCO, the US FDA and European notified bodies review software as a medical device, and they expect traceable, reproducible development. Recording the GPU model, driver and CUDA versions, framework versions and random seeds for every training run is a small habit that pays off when auditors ask how a model was built.

## Accelerate your research

Find GPUs with the memory your models need, and compare prices and locations, on the [marketplace](/marketplace). If your department has GPU servers that sit idle between studies, [become a provider](/provider-signup): your spare capacity can help other researchers and fund your own.
`,
};
